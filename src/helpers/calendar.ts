/**
 * Date maths on YYYY-MM-DD calendar dates, in UTC so that no time zone or daylight-saving shift
 * can move a day. Inputs are assumed valid (the schemas check them with `calendarDate`).
 */

const MS_PER_DAY = 86_400_000;

function partsOf(date: string): [year: number, month: number, day: number] {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return [year, month, day];
}

function fromUtc(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Days since 1970-01-01; differences of these are exact day counts. */
function dayNumber(date: string): number {
  const [year, month, day] = partsOf(date);
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

export function addDays(date: string, days: number): string {
  return fromUtc((dayNumber(date) + days) * MS_PER_DAY);
}

/** Whole days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * The same day `months` later, clamped to the month's last day: 2026-01-31 + 1 month is
 * 2026-02-28 (2028-02-29 in a leap year). Always count from one anchor date rather than chaining,
 * or Jan 31 → Feb 28 → Mar 28 would lose the month end.
 */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = partsOf(date);
  const first = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = daysInMonth(first.getUTCFullYear(), first.getUTCMonth());
  return fromUtc(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(day, lastDay)));
}

/** Last day of the date's month: 2028-02-10 → 2028-02-29. */
export function endOfMonth(date: string): string {
  const [year, month] = partsOf(date);
  return fromUtc(Date.UTC(year, month - 1, daysInMonth(year, month - 1)));
}

/** "1 day", "3 days". */
export function dayCount(days: number): string {
  return `${days} ${Math.abs(days) === 1 ? 'day' : 'days'}`;
}
