import * as v from 'valibot';
import { CURRENCY_CODES } from '../../invoice/currencies.js';
import { LIMITS } from '../../invoice/schema.js';
import { text } from '../../invoice/textRules.js';
import { asOfField, currencyField, DateSchema, helperDate, MoneySchema, moneyAmount, singleLine } from '../fields.js';

export const TONES = ['friendly', 'neutral', 'firm', 'final'] as const;
const REMINDER_STATUSES = ['upcoming', 'due_today', 'overdue'] as const;

const MAX_LINK_LENGTH = 2000;

/** new URL() accepts what browsers accept; only https links go into a payment reminder. */
function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

export const ReminderDraftRequestSchema = v.strictObject(
  {
    tone: v.optional(
      v.pipe(
        v.picklist(TONES, `must be one of ${TONES.join(', ')}`),
        v.description('friendly (default), neutral, firm or final: wording and escalation of the text.'),
      ),
      'friendly',
    ),
    from_name: singleLine({
      min: 1,
      max: LIMITS.partyName,
      description: 'Who signs the reminder (person or business), one line of 1 to 120 characters.',
    }),
    client_name: singleLine({
      min: 1,
      max: LIMITS.partyName,
      description: 'Who the reminder is addressed to, one line of 1 to 120 characters.',
    }),
    invoice_number: singleLine({
      min: 1,
      max: LIMITS.invoiceNumber,
      description: 'Invoice number, one line of 1 to 64 characters.',
    }),
    amount: moneyAmount('Amount due.'),
    currency: currencyField,
    due_date: helperDate('Due date of the invoice, YYYY-MM-DD.'),
    as_of: asOfField,
    payment_link: v.optional(
      v.pipe(
        text({
          min: 1,
          max: MAX_LINK_LENGTH,
          description: `Where to pay online: an https: URL, at most ${MAX_LINK_LENGTH} characters.`,
        }),
        v.check(isHttpsUrl, 'must be an https: URL, e.g. https://pay.example.com/inv/42'),
      ),
    ),
  },
  'unknown property',
);

export type ReminderDraftRequest = v.InferOutput<typeof ReminderDraftRequestSchema>;

export const ReminderDraftSchema = v.object({
  subject: v.pipe(v.string(), v.description('Subject line, plain text.')),
  body: v.pipe(v.string(), v.description('Body, plain text with \\n line breaks, ending with the signature.')),
  tone: v.picklist(TONES),
  status: v.pipe(
    v.picklist(REMINDER_STATUSES),
    v.description('upcoming before the due date, due_today on it, overdue after it (as of as_of).'),
  ),
  days_overdue: v.pipe(v.number(), v.description('Days past the due date; 0 unless overdue.')),
  days_until_due: v.pipe(v.number(), v.description('Days left until the due date; 0 unless upcoming.')),
  amount: MoneySchema,
  currency: v.picklist(CURRENCY_CODES),
  due_date: DateSchema,
  as_of: DateSchema,
  payment_link: v.nullable(v.string()),
});

export type ReminderDraft = v.InferOutput<typeof ReminderDraftSchema>;

/** The request the docs show and the tests send (its answer is published for as_of/today 2026-11-22). */
export const REMINDER_DRAFT_EXAMPLE: v.InferInput<typeof ReminderDraftRequestSchema> = {
  tone: 'friendly',
  from_name: 'Northwind Studio GmbH',
  client_name: 'Acme Robotics Inc.',
  invoice_number: 'INV-2026-0042',
  amount: 10803.74,
  currency: 'USD',
  due_date: '2026-12-02',
  as_of: '2026-12-09',
  payment_link: 'https://pay.northwind.example/inv/INV-2026-0042',
};
