import * as v from 'valibot';

/**
 * Building blocks shared by every request schema (invoice and helpers), so that a limit or a
 * message is written once and reads the same everywhere.
 */

// C0 controls except tab (U+0009) and newline (U+000A), DEL, and C1 controls (docs/invoice.md).
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u0008\u000B-\u001F\u007F-\u009F]*$/u;

/** A user-supplied text: Unicode kept as sent, no control characters, bounded length. */
export function text(options: { min?: number; max: number; description?: string }) {
  const { min = 0, max } = options;
  return v.pipe(
    v.string('must be a string'),
    v.minLength(min, `must be at least ${min} character${min === 1 ? '' : 's'} long`),
    v.maxLength(max, `must be at most ${max} characters long`),
    v.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters (only newline and tab are allowed)'),
    v.description(options.description ?? `Text, ${min > 0 ? `${min} to ${max}` : `at most ${max}`} characters.`),
  );
}

/** A finite JSON number within [min, max]; `exclusiveMin` makes the lower bound strict. */
export function amount(options: { min: number; max: number; exclusiveMin?: boolean; description: string }) {
  const { min, max, exclusiveMin = false } = options;
  return v.pipe(
    v.number('must be a number'),
    v.finite('must be a finite number'),
    exclusiveMin ? v.gtValue(min, `must be greater than ${min}`) : v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
    v.description(options.description),
  );
}

/** Whole number within [min, max]. */
export function wholeNumber(options: { min: number; max: number; description: string }) {
  return v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(options.min, `must be at least ${options.min}`),
    v.maxValue(options.max, `must be at most ${options.max}`),
    v.description(options.description),
  );
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** True when YYYY-MM-DD names a day that exists (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  if (!DATE_PATTERN.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar date written YYYY-MM-DD. */
export function calendarDate(description: string) {
  return v.pipe(
    v.string('must be a string'),
    v.regex(DATE_PATTERN, 'must be a date written YYYY-MM-DD'),
    v.check(isCalendarDate, 'must be a real calendar date'),
    v.description(description),
  );
}
