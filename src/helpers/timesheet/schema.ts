import * as v from 'valibot';
import { decimalFromNumber, significantScale } from '../../invoice/decimal.js';
import { PaymentSchema } from '../../invoice/paymentQr/index.js';
import { InvoiceSchema, LIMITS, LocaleField, PartySchema } from '../../invoice/schema.js';
import { amount, text, wholeNumber } from '../../invoice/textRules.js';
import { TotalsReportSchema } from '../../invoice/totalsReport.js';
import { currencyField, helperDate, moneyAmount } from '../fields.js';
import { ACCEPTED_DUE_DATE_TERMS } from '../termsExpression.js';
import { ROUNDING_MODES } from './hours.js';

export const TIMESHEET_LIMITS = {
  entries: 2000,
  expenses: 200,
  hoursPerEntry: 1000,
  hourDecimals: 6,
  // Room for a "YYYY-MM-DD: " prefix when group_by is none, within the 300 of an invoice line.
  entryDescription: LIMITS.description - 20,
  incrementMinutes: 240,
} as const;

export const GROUP_BY = ['description', 'date', 'none'] as const;

const hourlyRate = (description: string) =>
  amount({
    min: 0,
    max: LIMITS.unitPrice,
    description: `${description} Major units per hour, 0 to ${LIMITS.unitPrice}.`,
  });

const EntrySchema = v.strictObject(
  {
    date: helperDate('Day the work was done, YYYY-MM-DD.'),
    description: text({
      min: 1,
      max: TIMESHEET_LIMITS.entryDescription,
      description: `What was done, 1 to ${TIMESHEET_LIMITS.entryDescription} characters.`,
    }),
    hours: v.pipe(
      amount({
        min: 0,
        exclusiveMin: true,
        max: TIMESHEET_LIMITS.hoursPerEntry,
        description: `Hours worked, greater than 0 and at most ${TIMESHEET_LIMITS.hoursPerEntry}, at most ${TIMESHEET_LIMITS.hourDecimals} decimals (1.5 = 1 h 30 min).`,
      }),
      v.check(
        (hours: number) => significantScale(decimalFromNumber(hours)) <= TIMESHEET_LIMITS.hourDecimals,
        `must have at most ${TIMESHEET_LIMITS.hourDecimals} decimal places`,
      ),
    ),
    rate: v.optional(hourlyRate('Hourly rate for this entry, instead of default_rate.')),
  },
  'unknown property',
);

const ExpenseSchema = v.strictObject(
  {
    description: text({ min: 1, max: LIMITS.description, description: 'What the expense was, 1 to 300 characters.' }),
    amount: moneyAmount('Amount of the expense, billed as one line of quantity 1.'),
  },
  'unknown property',
);

const RoundingSchema = v.strictObject(
  {
    increment_minutes: v.pipe(
      wholeNumber({
        min: 3,
        max: TIMESHEET_LIMITS.incrementMinutes,
        description:
          'Billing increment in minutes, a multiple of 3 from 3 to 240 (6 = 0.1 h, 15 = 0.25 h), so rounded hours are exact decimals.',
      }),
      v.check(
        (minutes: number) => minutes % 3 === 0,
        'must be a multiple of 3 minutes (e.g. 6, 15, 30 or 60) so that rounded hours are exact decimals',
      ),
    ),
    mode: v.pipe(
      v.picklist(ROUNDING_MODES, `must be one of ${ROUNDING_MODES.join(', ')}`),
      v.description(
        'up: every started increment is billed; nearest: half an increment or more rounds up; down: only whole increments.',
      ),
    ),
  },
  'unknown property',
);

export const TimesheetRequestSchema = v.strictObject(
  {
    seller: PartySchema,
    buyer: PartySchema,
    invoice_number: text({ min: 1, max: LIMITS.invoiceNumber, description: 'Invoice number, 1 to 64 characters.' }),
    issue_date: helperDate('Issue date of the invoice, YYYY-MM-DD.'),
    terms: v.optional(
      text({
        min: 1,
        max: 100,
        description: `Payment terms that set due_date, case-insensitive: ${ACCEPTED_DUE_DATE_TERMS}. Without terms the invoice has no due date.`,
      }),
    ),
    currency: currencyField,
    default_rate: v.optional(hourlyRate('Hourly rate for entries without their own rate.')),
    entries: v.pipe(
      v.array(EntrySchema, 'must be an array of entries'),
      v.minLength(1, 'must have at least 1 entry'),
      v.maxLength(TIMESHEET_LIMITS.entries, `must have at most ${TIMESHEET_LIMITS.entries} entries`),
      v.description(`Time entries, 1 to ${TIMESHEET_LIMITS.entries}.`),
    ),
    group_by: v.optional(
      v.pipe(
        v.picklist(GROUP_BY, `must be one of ${GROUP_BY.join(', ')}`),
        v.description(
          'description (default): one line per description and rate; date: one line per day and rate; none: one line per entry.',
        ),
      ),
      'description',
    ),
    rounding: v.optional(
      v.pipe(
        RoundingSchema,
        v.description(
          'Rounds each entry to the increment before grouping. Without it, hours are billed exactly as sent.',
        ),
      ),
    ),
    expenses: v.optional(
      v.pipe(
        v.array(ExpenseSchema, 'must be an array of expenses'),
        v.maxLength(TIMESHEET_LIMITS.expenses, `must have at most ${TIMESHEET_LIMITS.expenses} expenses`),
        v.description('Expenses, each added after the time lines as a line of quantity 1.'),
      ),
    ),
    tax_rate: v.optional(
      amount({ min: 0, max: LIMITS.taxRate, description: 'Tax rate in percent, 0 to 100, passed to the invoice.' }),
    ),
    notes: v.optional(
      text({
        max: LIMITS.notes,
        description: 'Passed to the invoice: free text under the totals, at most 2000 characters.',
      }),
    ),
    payment_instructions: v.optional(
      text({
        max: LIMITS.paymentInstructions,
        description: 'Passed to the invoice: how to pay, at most 1000 characters.',
      }),
    ),
    locale: LocaleField,
    purchase_order: v.optional(
      text({ min: 1, max: LIMITS.reference, description: "Passed to the invoice: the buyer's purchase order number." }),
    ),
    buyer_reference: v.optional(
      text({ min: 1, max: LIMITS.reference, description: "Passed to the invoice: the buyer's reference." }),
    ),
    payment: v.optional(PaymentSchema),
  },
  'unknown property',
);

export type TimesheetRequest = v.InferOutput<typeof TimesheetRequestSchema>;

const numberWith = (description: string) => v.pipe(v.number(), v.description(description));

const TimesheetGroupSchema = v.object({
  line_index: v.pipe(
    v.nullable(v.number()),
    v.description('Index of the invoice line; null when the group rounds to 0 hours and is left off the invoice.'),
  ),
  description: v.pipe(v.string(), v.description('The line description.')),
  date: v.pipe(
    v.nullable(v.string()),
    v.description('The day, for group_by date or none; null for group_by description.'),
  ),
  rate: numberWith('Hourly rate of the line.'),
  entries: v.pipe(v.array(v.number()), v.description('Indexes of the entries in this group.')),
  hours_before_rounding: numberWith('Sum of the hours as sent.'),
  hours_after_rounding: numberWith('Sum of the rounded hours: the line quantity.'),
});

export const TimesheetResultSchema = v.object({
  invoice: v.pipe(
    InvoiceSchema,
    v.description('A body POST /v1/invoice.pdf and /v1/invoice/validate accept unchanged.'),
  ),
  totals: v.pipe(TotalsReportSchema, v.description('What POST /v1/invoice/validate answers for the invoice.')),
  summary: v.object({
    group_by: v.picklist(GROUP_BY),
    rounding: v.nullable(v.object({ increment_minutes: v.number(), mode: v.picklist(ROUNDING_MODES) })),
    entries: numberWith('Number of entries.'),
    hours_before_rounding: numberWith('Total hours as sent.'),
    hours_after_rounding: numberWith('Total hours billed.'),
    groups: v.array(TimesheetGroupSchema),
    omitted_entries: v.pipe(
      v.array(v.number()),
      v.description('Indexes of entries in groups that round to 0 hours, which are not on the invoice.'),
    ),
    expense_lines: numberWith('Number of expense lines.'),
  }),
});

export type TimesheetResult = v.InferOutput<typeof TimesheetResultSchema>;

/** The request the docs show and the tests send (its answer is published for as_of/today 2026-11-22). */
export const TIMESHEET_EXAMPLE: v.InferInput<typeof TimesheetRequestSchema> = {
  seller: {
    name: 'Northwind Studio GmbH',
    address: 'Torstraße 12\n10119 Berlin\nGermany',
    email: 'billing@northwind.example',
    tax_id: 'DE123456789',
  },
  buyer: {
    name: 'Acme Robotics Inc.',
    address: '500 Market Street, Suite 400\nSan Francisco, CA 94105\nUSA',
    email: 'ap@acme.example',
  },
  invoice_number: 'INV-2026-0043',
  issue_date: '2026-11-30',
  terms: 'Net 30',
  currency: 'USD',
  default_rate: 140,
  entries: [
    { date: '2026-11-03', description: 'Design system consulting', hours: 2.2 },
    { date: '2026-11-05', description: 'Usability test analysis', hours: 3.75, rate: 120 },
    { date: '2026-11-10', description: 'Design system consulting', hours: 1.05 },
    { date: '2026-11-12', description: 'Design system consulting', hours: 4 },
  ],
  group_by: 'description',
  rounding: { increment_minutes: 15, mode: 'up' },
  expenses: [{ description: 'Prototype hosting, November', amount: 49.99 }],
  tax_rate: 7.5,
  payment_instructions: 'Bank transfer to IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX), reference INV-2026-0043.',
};
