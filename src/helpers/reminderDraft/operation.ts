import { CURRENCIES, type CurrencyCode } from '../../invoice/currencies.js';
import { dayCount } from '../calendar.js';
import { minorFromAmount, moneyInRange } from '../minorUnits.js';
import type { JsonOperation, OperationContext } from '../operation.js';
import { reminderStatus } from './reminderStatus.js';
import { renderReminder } from './reminderTemplates.js';
import {
  ReminderDraftRequestSchema,
  ReminderDraftSchema,
  type ReminderDraft,
  type ReminderDraftRequest,
} from './schema.js';

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

function draftReminder(input: ReminderDraftRequest, context: OperationContext): ReminderDraft {
  const asOf = input.as_of ?? context.today;
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

export const reminderDraftOperation = {
  operationId: 'v1_reminder_draft',
  path: '/v1/reminder-draft',
  summary: 'Draft a payment reminder email (subject and body) for an invoice',
  description:
    'Writes a plain-text payment reminder in one of four tones (friendly, neutral, firm, final) whose wording follows the invoice status on as_of ' +
    '(default today, UTC): upcoming, due today or overdue, with the days overdue. The amount is formatted for the currency from exact minor units; ' +
    'an optional https payment link is included. Texts come from editable templates.',
  request: ReminderDraftRequestSchema,
  response: ReminderDraftSchema,
  example: {
    tone: 'friendly',
    from_name: 'Northwind Studio GmbH',
    client_name: 'Acme Robotics Inc.',
    invoice_number: 'INV-2026-0042',
    amount: 10803.74,
    currency: 'USD',
    due_date: '2026-12-02',
    as_of: '2026-12-09',
    payment_link: 'https://pay.northwind.example/inv/INV-2026-0042',
  },
  run: draftReminder,
} satisfies JsonOperation<typeof ReminderDraftRequestSchema, ReminderDraft>;
