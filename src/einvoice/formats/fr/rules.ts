import type { Issue } from '../../../errors.js';
import { decimalFromNumber, decimalToString, significantScale } from '../../../invoice/decimal.js';
import type { Invoice } from '../../../invoice/schema.js';
import type { Rule } from '../../rules.js';
import { electronicAddress, isCreditNote, required, rule } from '../ruleHelpers.js';

/** FNFE-MPE BR-FR flux 2, EN16931 profile (France_RFE 1.4.0.03). */
/** BR-FR-16: the VAT rates France knows (FNFE's list, as written in BT-96/119/152). */
const FRENCH_RATES = new Set([
  '0',
  '10',
  '13',
  '20',
  '8.5',
  '19.6',
  '2.1',
  '5.5',
  '7',
  '20.6',
  '1.05',
  '0.9',
  '1.75',
  '9.2',
  '9.6',
]);
/** BR-FR-08 without B9/S9/M9: those are self-billed invoices (type codes 389, 261, …), which this service does not issue. */
const FRENCH_FRAMEWORKS = [
  'B1',
  'S1',
  'M1',
  'B2',
  'S2',
  'M2',
  'S3',
  'B4',
  'S4',
  'M4',
  'S5',
  'S6',
  'B7',
  'S7',
  'B8',
  'S8',
  'M8',
];
const FRENCH_ID = /^[A-Za-z0-9+\-_/]+$/;

function frenchNumber(path: string, value: string | undefined): Omit<Issue, 'code'>[] {
  if (value === undefined) return [];
  return [
    ...(value.length > 35
      ? [{ path, message: `is ${value.length} characters long; France allows at most 35 (BR-FR-01)` }]
      : []),
    ...(!FRENCH_ID.test(value)
      ? [{ path, message: 'may only contain letters, digits and + - _ / (no spaces) in France (BR-FR-01, BR-FR-02)' }]
      : []),
  ];
}

const FRENCH_DATES: [string, (invoice: Invoice) => string | undefined][] = [
  ['issue_date', (invoice) => invoice.issue_date],
  ['due_date', (invoice) => invoice.due_date],
  ['delivery_date', (invoice) => invoice.delivery_date],
  ['invoicing_period.start', (invoice) => invoice.invoicing_period?.start],
  ['invoicing_period.end', (invoice) => invoice.invoicing_period?.end],
  ['preceding_invoice.issue_date', (invoice) => invoice.preceding_invoice?.issue_date],
];

const decimals = (value: number) => significantScale(decimalFromNumber(value));

export const FR_RULES: readonly Rule[] = [
  rule('BR-FR-01', 'invoice numbers (BT-1, BT-25) have at most 35 characters: letters, digits and + - _ /', (c) => [
    ...frenchNumber('invoice_number', c.invoice.invoice_number),
    ...frenchNumber('preceding_invoice.number', c.invoice.preceding_invoice?.number),
  ]),
  rule('BR-FR-03', 'dates lie in the years 2000 to 2099', (c) =>
    FRENCH_DATES.flatMap(([path, value]) => {
      const date = value(c.invoice);
      return date !== undefined && !/^20/.test(date)
        ? [{ path, message: 'must lie in the years 2000 to 2099 (BR-FR-03)' }]
        : [];
    }),
  ),
  required(
    'BR-FR-05',
    'the legal notes on recovery fee (PMT), late-payment penalties (PMD) and early-payment discount (AAB) are required: legal_notes (give {} to have the statutory wording written)',
    'legal_notes',
    (invoice) => invoice.legal_notes,
  ),
  rule(
    'BR-FR-08',
    `the invoicing framework (BT-23) is required: business_process, one of ${FRENCH_FRAMEWORKS.join(', ')}`,
    (c) =>
      FRENCH_FRAMEWORKS.includes(c.invoice.business_process ?? '')
        ? []
        : [
            {
              path: 'business_process',
              message: `must be a French invoicing framework code: B1 (goods), S1 (services), M1 (mixed) or ${FRENCH_FRAMEWORKS.slice(3).join(', ')} (BR-FR-08)`,
            },
          ],
  ),
  rule(
    'BR-FR-CO-09',
    'an invoice already paid (B2, S2, M2) has no amount due and names its payment date as due_date',
    (c) =>
      ['B2', 'S2', 'M2'].includes(c.invoice.business_process ?? '')
        ? [
            ...(c.totals.balanceDue !== 0n
              ? [
                  {
                    path: 'amount_paid',
                    message:
                      'must equal the total: the invoicing framework B2/S2/M2 is for invoices already paid (BR-FR-CO-09)',
                  },
                ]
              : []),
            ...(c.invoice.due_date === undefined
              ? [{ path: 'due_date', message: 'is required with B2/S2/M2: the date of payment (BR-FR-CO-09)' }]
              : []),
          ]
        : [],
  ),
  rule(
    'BR-FR-10',
    'the seller\'s SIREN (BT-30, scheme 0002) is required: seller.legal_registration { scheme: "0002", id }',
    (c) =>
      c.invoice.seller.legal_registration?.scheme === '0002'
        ? []
        : [
            {
              path: 'seller.legal_registration',
              message: "is required with scheme 0002: a French invoice names the seller's SIREN (9 digits) (BR-FR-10)",
            },
          ],
  ),
  electronicAddress('BR-FR-12', 'buyer', 'BT-49'),
  electronicAddress('BR-FR-13', 'seller', 'BT-34'),
  rule('BR-FR-16', `VAT rates are French rates: ${[...FRENCH_RATES].join(', ')} %`, (c) =>
    c.totals.lineTax.flatMap((tax, at) => {
      const rate = decimalToString(tax.rate);
      return FRENCH_RATES.has(rate)
        ? []
        : [
            {
              path: `line_items[${at}].tax_rate`,
              message: `is ${rate} %, which is not a French VAT rate (${[...FRENCH_RATES].join(', ')}) (BR-FR-16)`,
            },
          ];
    }),
  ),
  rule(
    'BR-FR-CO-05',
    'a credit note names the invoice it credits, with its date: preceding_invoice { number, issue_date }',
    (c) =>
      isCreditNote(c) && c.invoice.preceding_invoice?.issue_date === undefined
        ? [
            {
              path: c.invoice.preceding_invoice ? 'preceding_invoice.issue_date' : 'preceding_invoice',
              message: 'is required on a French credit note: the credited invoice with its issue date (BR-FR-CO-05)',
            },
          ]
        : [],
  ),
  rule(
    'BR-FR-CO-12',
    'the invoice is in EUR (another currency needs the VAT total in EUR, which the service cannot convert)',
    (c) =>
      c.invoice.currency !== 'EUR'
        ? [
            {
              path: 'currency',
              message: 'must be EUR for a French e-invoice: another currency needs the VAT total in EUR (BR-FR-CO-12)',
            },
          ]
        : [],
  ),
  rule('BR-FR-DEC-02', 'quantities have at most 4 decimals', (c) =>
    c.invoice.line_items.flatMap((line, at) =>
      decimals(line.quantity) > 4
        ? [{ path: `line_items[${at}].quantity`, message: 'may have at most 4 decimals in France (BR-FR-DEC-02)' }]
        : [],
    ),
  ),
  rule('BR-FR-DEC-03', 'unit prices have at most 6 decimals', (c) =>
    c.invoice.line_items.flatMap((line, at) =>
      decimals(line.unit_price) > 6
        ? [{ path: `line_items[${at}].unit_price`, message: 'may have at most 6 decimals in France (BR-FR-DEC-03)' }]
        : [],
    ),
  ),
];
