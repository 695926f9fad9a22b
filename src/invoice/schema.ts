import * as v from 'valibot';
import { CURRENCY_CODES, DEFAULT_CURRENCY } from './currencies.js';
import { amount, calendarDate, text } from './textRules.js';

/** SPEC §2.1–2.3 and §8. One schema serves POST /v1/invoice.pdf and POST /v1/invoice/validate. */

export const LIMITS = {
  lineItems: { min: 1, max: 200 },
  invoiceNumber: 64,
  partyName: 120,
  partyAddress: 400,
  partyEmail: 254,
  partyPhone: 40,
  partyTaxId: 60,
  description: 300,
  quantity: 1_000_000,
  unitPrice: 1_000_000_000,
  taxRate: 100,
  discount: 1_000_000_000,
  notes: 2000,
  paymentInstructions: 1000,
} as const;

/** An optional ISO 4217 code among the 12 supported, defaulting to USD; shared with the helpers. */
export const CurrencyField = v.optional(
  v.pipe(
    v.picklist(CURRENCY_CODES, `must be one of ${CURRENCY_CODES.join(', ')}`),
    v.description(`ISO 4217 code, one of ${CURRENCY_CODES.join(', ')}. Default ${DEFAULT_CURRENCY}.`),
  ),
  DEFAULT_CURRENCY,
);

export const PartySchema = v.strictObject(
  {
    name: text({ min: 1, max: LIMITS.partyName, description: 'Legal or trading name, 1 to 120 characters.' }),
    address: v.optional(text({ max: LIMITS.partyAddress, description: 'Postal address; newlines are kept as line breaks. At most 400 characters.' })),
    email: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.maxLength(LIMITS.partyEmail, `must be at most ${LIMITS.partyEmail} characters long`),
        v.email('must be an email address like name@example.com'),
        v.description('Email address (local-part@domain, top-level label of at least 2 letters), at most 254 characters.'),
      ),
    ),
    phone: v.optional(text({ max: LIMITS.partyPhone, description: 'Phone number as it should be printed, at most 40 characters.' })),
    tax_id: v.optional(text({ max: LIMITS.partyTaxId, description: 'VAT, GST or other tax identifier, at most 60 characters.' })),
  },
  'unknown property',
);

export const LineItemSchema = v.strictObject(
  {
    description: text({ min: 1, max: LIMITS.description, description: 'What was sold, 1 to 300 characters.' }),
    quantity: amount({
      min: 0,
      max: LIMITS.quantity,
      exclusiveMin: true,
      description: 'Quantity, greater than 0 and at most 1000000; decimals allowed (e.g. 1.5 hours).',
    }),
    unit_price: amount({
      min: 0,
      max: LIMITS.unitPrice,
      description: 'Price of one unit in major units of the currency (12.5 = twelve and a half dollars), 0 to 1000000000.',
    }),
  },
  'unknown property',
);

const InvoiceFieldsSchema = v.strictObject(
  {
    seller: PartySchema,
    buyer: PartySchema,
    invoice_number: text({ min: 1, max: LIMITS.invoiceNumber, description: 'Invoice number, 1 to 64 characters.' }),
    issue_date: calendarDate('Issue date, YYYY-MM-DD, a real calendar date.'),
    due_date: v.optional(calendarDate('Due date, YYYY-MM-DD, a real calendar date, not before issue_date.')),
    currency: CurrencyField,
    line_items: v.pipe(
      v.array(LineItemSchema, 'must be an array of line items'),
      v.minLength(LIMITS.lineItems.min, 'must have at least 1 line item'),
      v.maxLength(LIMITS.lineItems.max, `must have at most ${LIMITS.lineItems.max} line items`),
      v.description('Line items, 1 to 200.'),
    ),
    tax_rate: v.optional(amount({ min: 0, max: LIMITS.taxRate, description: 'Tax rate in percent (7.5 means 7.5%), 0 to 100.' })),
    discount: v.optional(
      amount({
        min: 0,
        max: LIMITS.discount,
        description: 'Absolute discount in major units, subtracted before tax; 0 to 1000000000 and not more than the subtotal.',
      }),
    ),
    notes: v.optional(text({ max: LIMITS.notes, description: 'Free text printed under the totals, at most 2000 characters.' })),
    payment_instructions: v.optional(
      text({ max: LIMITS.paymentInstructions, description: 'How to pay (bank details, link text), at most 1000 characters.' }),
    ),
  },
  'unknown property',
);

export const InvoiceSchema = v.pipe(
  InvoiceFieldsSchema,
  v.forward(
    v.partialCheck(
      [['issue_date'], ['due_date']],
      (input) => input.due_date === undefined || input.due_date >= input.issue_date,
      'must not be before issue_date',
    ),
    ['due_date'],
  ),
);

export type Invoice = v.InferOutput<typeof InvoiceSchema>;
export type InvoiceInput = v.InferInput<typeof InvoiceSchema>;
export type Party = v.InferOutput<typeof PartySchema>;
export type LineItem = v.InferOutput<typeof LineItemSchema>;
