import * as v from 'valibot';
import { CURRENCY_CODES, DEFAULT_CURRENCY } from './currencies.js';
import { DESIGN_FIELDS } from './designFields.js';
import { E_INVOICE_INVOICE_FIELDS } from './eInvoiceFields.js';
import { OVERRIDABLE_LABEL_KEYS } from './labelKeys.js';
import { LIMITS } from './limits.js';
import { LineItemSchema } from './lineItemSchema.js';
import { LANGUAGES, parseLocaleTag } from './locales.js';
import { PartySchema } from './partySchema.js';
import { PaymentSchema } from './paymentQr/index.js';
import { amount, calendarDate, text } from './textRules.js';

/**
 * One schema serves POST /v1/invoice.pdf and POST /v1/invoice/validate: the minimal invoice, plus
 * the optional fields of the real-world invoice (docs/invoice.md; every minimal request stays
 * valid and prints as before). Rules that need several fields or the totals are in rules.ts and
 * checkTotals.ts.
 */
export { LIMITS } from './limits.js';
export type { LineItem } from './lineItemSchema.js';
export { PartySchema, type Party } from './partySchema.js';

/** An optional ISO 4217 code among the 16 supported, defaulting to USD; shared with the helpers. */
export const CurrencyField = v.optional(
  v.pipe(
    v.picklist(CURRENCY_CODES, `must be one of ${CURRENCY_CODES.join(', ')}`),
    v.description(`ISO 4217 code, one of ${CURRENCY_CODES.join(', ')}. Default ${DEFAULT_CURRENCY}.`),
  ),
  DEFAULT_CURRENCY,
);

export const LocaleField = v.optional(
  v.pipe(
    v.string('must be a string'),
    v.maxLength(LIMITS.localeTag, `must be at most ${LIMITS.localeTag} characters long`),
    v.check(
      (tag) => parseLocaleTag(tag) !== undefined,
      `must be a BCP 47 locale whose language is one of ${LANGUAGES.join(', ')} (e.g. de-DE, fr-CH, ar-EG)`,
    ),
    v.description(
      `Language and formats of the invoice: a BCP 47 tag whose language is one of ${LANGUAGES.join(', ')}; the region sets number and date formats (de-CH prints CHF 1'234.50). ar and he print right to left. Default: English labels with the currency's formats.`,
    ),
  ),
);

const LabelsSchema = v.pipe(
  v.strictObject(
    Object.fromEntries(
      OVERRIDABLE_LABEL_KEYS.map((key) => [
        key,
        v.optional(text({ min: 1, max: LIMITS.label, description: `Replaces the "${key}" label.` })),
      ]),
    ),
    'is not a label key (see templates/locales/en.json)',
  ),
  v.description(
    'Replaces single labels of the language catalog for this invoice, e.g. { "invoice": "Tax invoice" }; 1 to 200 characters each. page_of and language_name cannot be replaced.',
  ),
);

const CustomFieldSchema = v.strictObject(
  {
    label: text({ min: 1, max: LIMITS.customFieldLabel, description: 'Label, 1 to 40 characters.' }),
    value: text({ min: 1, max: LIMITS.customFieldValue, description: 'Value, 1 to 200 characters.' }),
  },
  'unknown property',
);

// Checked here by shape only; prepareInvoice decodes it once and checks magic bytes and size.
const LOGO_DATA_URI = /^data:image\/(?:png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;
const LOGO_MAX_CHARS = 'data:image/jpeg;base64,'.length + Math.ceil(LIMITS.logoBytes / 3) * 4;

export const InvoiceFieldsSchema = v.strictObject(
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
    tax_rate: v.optional(
      amount({
        min: 0,
        max: LIMITS.taxRate,
        description: 'Tax rate in percent (7.5 means 7.5%), 0 to 100; the rate of every line that names none.',
      }),
    ),
    discount: v.optional(
      amount({
        min: 0,
        max: LIMITS.discount,
        description:
          'Absolute discount in major units, subtracted before tax and shared among the VAT groups in proportion to their net; 0 to 1000000000 and not more than the subtotal.',
      }),
    ),
    notes: v.optional(
      text({ max: LIMITS.notes, description: 'Free text printed under the totals, at most 2000 characters.' }),
    ),
    payment_instructions: v.optional(
      text({
        max: LIMITS.paymentInstructions,
        description: 'How to pay (bank details, link text), at most 1000 characters.',
      }),
    ),

    document_type: v.optional(
      v.pipe(
        v.picklist(['invoice', 'credit_note'], 'must be invoice or credit_note'),
        v.description('invoice (default) or credit_note; amounts stay positive on a credit note.'),
      ),
    ),
    preceding_invoice: v.optional(
      v.strictObject(
        {
          number: text({
            min: 1,
            max: LIMITS.invoiceNumber,
            description: 'Number of the invoice this document corrects or credits, 1 to 64 characters.',
          }),
          issue_date: v.optional(calendarDate('Issue date of that invoice, YYYY-MM-DD.')),
        },
        'unknown property',
      ),
    ),
    tax_exemption_reason: v.optional(
      text({
        min: 1,
        max: LIMITS.taxExemptionReason,
        description:
          'Why no VAT is charged, printed with the E, AE, K, G and O lines (1 to 300 characters); only for invoices that have such lines. Default: the standard wording of the language.',
      }),
    ),
    amount_paid: v.optional(
      amount({
        min: 0,
        max: LIMITS.amountPaid,
        description: 'Amount already paid, in major units, 0 to the total; the invoice then shows the balance due.',
      }),
    ),
    rounding_amount: v.optional(
      amount({
        min: -LIMITS.roundingAmount,
        max: LIMITS.roundingAmount,
        description:
          'Rounding of the amount due (EN 16931 BT-114), in major units, -1 to 1: added to the total less amount_paid, e.g. 0.05 steps of cash rounding in Australia, New Zealand, Switzerland or the UAE. The invoice then shows it and the amount due.',
      }),
    ),
    purchase_order: v.optional(
      text({ min: 1, max: LIMITS.reference, description: "The buyer's purchase order number, 1 to 64 characters." }),
    ),
    buyer_reference: v.optional(
      text({
        min: 1,
        max: LIMITS.reference,
        description: "The buyer's reference (e.g. Leitweg-ID), 1 to 64 characters.",
      }),
    ),
    ship_to: v.optional(PartySchema),
    custom_fields: v.optional(
      v.pipe(
        v.array(CustomFieldSchema, 'must be an array of { label, value }'),
        v.maxLength(LIMITS.customFields, `must have at most ${LIMITS.customFields} entries`),
        v.description('Extra label/value pairs printed in the details panel, at most 10.'),
      ),
    ),
    locale: LocaleField,
    labels: v.optional(LabelsSchema),
    logo: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.maxLength(LOGO_MAX_CHARS, `must be at most ${LIMITS.logoBytes / 1024} KiB of image data`),
        v.regex(
          LOGO_DATA_URI,
          'must be a data URI of a PNG or JPEG image: data:image/png;base64,… or data:image/jpeg;base64,… (SVG is not accepted)',
        ),
        v.description(
          `Logo printed in the masthead: a base64 data URI of a PNG or JPEG image (checked by its bytes), at most ${LIMITS.logoBytes / 1024} KiB and ${LIMITS.logoSide} pixels on either side. SVG is refused (it can carry scripts and references).`,
        ),
      ),
    ),
    accent_color: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour written #RRGGBB'),
        v.description('Accent colour of the design, #RRGGBB.'),
      ),
    ),
    payment: v.optional(PaymentSchema),

    // The look (design, stamp, theme): its own block, src/invoice/designFields.ts.
    ...DESIGN_FIELDS,
    // The national e-invoice fields (EN 16931 BT numbers in their notes): eInvoiceFields.ts.
    ...E_INVOICE_INVOICE_FIELDS,
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
