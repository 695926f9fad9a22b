import { CURRENCIES, type CurrencyCode } from '../../invoice/currencies.js';
import { dayCount } from '../calendar.js';
import { minorFromAmount, moneyInRange } from '../minorUnits.js';
import { reminderStatus } from './reminderStatus.js';
import { renderReminder } from './reminderTemplates.js';
import type { ReminderDraft, ReminderDraftRequest } from './schema.js';

/**
 * The texts are English, so dates are written the English way of the currency's country
 * ("December 2, 2026" for USD, "2 December 2026" for EUR or GBP); non-English locales fall back to
 * the day-month-year form, which reads unambiguously everywhere.
 */
function longDate(date: string, currency: CurrencyCode): string {
  const locale = CURRENCIES[currency].locale;
  const english = locale.startsWith('en-') ? locale : 'en-GB';
  return new Intl.DateTimeFormat(english, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** The reminder for `input` as of its as_of, or of `today` (UTC, YYYY-MM-DD) when as_of is left out. */
export function draftReminder(input: ReminderDraftRequest, today: string): ReminderDraft {
  const asOf = input.as_of ?? today;
  const status = reminderStatus(input.due_date, asOf);
  const amount = moneyInRange(minorFromAmount(input.amount, input.currency), input.currency, 'amount');
  const paymentLink = input.payment_link ?? null;
  const { subject, body } = renderReminder(input.tone, {
    client_name: input.client_name,
    from_name: input.from_name,
    invoice_number: input.invoice_number,
    amount: amount.formatted,
    due_date: longDate(input.due_date, input.currency),
    upcoming: status.status === 'upcoming',
    due_today: status.status === 'due_today',
    overdue: status.status === 'overdue',
    days_until_due: dayCount(status.days_until_due),
    days_overdue: dayCount(status.days_overdue),
    payment_link: paymentLink,
  });
  return {
    subject,
    body,
    tone: input.tone,
    ...status,
    amount,
    currency: input.currency,
    due_date: input.due_date,
    as_of: asOf,
    payment_link: paymentLink,
  };
}
