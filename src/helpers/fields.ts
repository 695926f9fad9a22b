import * as v from 'valibot';
import { CurrencyField, LIMITS } from '../invoice/schema.js';
import { amount, calendarDate, isCalendarDate, text } from '../invoice/textRules.js';
import { MoneySchema } from '../invoice/totalsReport.js';

/** Request and response building blocks shared by the four helper operations. */

/** Same bound as an invoice unit price or discount, so a helper never accepts what an invoice refuses. */
const MAX_AMOUNT = LIMITS.unitPrice;

// Helper dates are bounded so that date arithmetic (up to 3650 days of terms or grace, up to 100
// years of late-fee periods) always lands on a four-digit year.
const EARLIEST_DATE = '1900-01-01';
const LATEST_DATE = '2999-12-31';

export function helperDate(description: string) {
  return v.pipe(
    calendarDate(`${description} Between ${EARLIEST_DATE} and ${LATEST_DATE}.`),
    v.check(
      // A malformed date already has its issue; only a real date is checked against the range.
      (date: string) => !isCalendarDate(date) || (date >= EARLIEST_DATE && date <= LATEST_DATE),
      `must be between ${EARLIEST_DATE} and ${LATEST_DATE}`,
    ),
  );
}

export const asOfField = v.optional(helperDate('The day to compute for, YYYY-MM-DD. Default: today (UTC).'));

export const currencyField = CurrencyField;

export function moneyAmount(description: string) {
  return amount({
    min: 0,
    max: MAX_AMOUNT,
    description: `${description} Major units (12.5 = twelve and a half dollars), 0 to ${MAX_AMOUNT}.`,
  });
}

/** The Money shape of the invoice totals report, so both describe amounts identically. */
export { MoneySchema };

export const DateSchema = v.pipe(v.string(), v.description('YYYY-MM-DD'));

/** Text that goes into a subject line or a sentence: no line breaks. */
export function singleLine(options: { min?: number; max: number; description: string }) {
  return v.pipe(text(options), v.regex(/^[^\n\t]*$/, 'must be a single line (no newline or tab)'));
}
