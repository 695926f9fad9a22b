import type { Issue } from '../errors.js';
import { decimalFromNumber, decimalToString, significantScale } from '../invoice/decimal.js';
import type { Invoice, Party } from '../invoice/schema.js';
import type { EInvoiceProfile } from './profiles.js';
import { HR_RULES } from './formats/hr/rules.js';
import { PINT_RULES } from './formats/pint/rules.js';
import type { Rule, RuleContext } from './rules.js';

/**
 * The national rule sets on top of EN 16931, written here from the official rule texts (KoSIT
 * XRechnung BR-DE-*, OpenPEPPOL BIS Billing 3.0, FNFE-MPE BR-FR flux 2): the rules a request of
 * this service can break, each issue naming the request field (path) and the official rule id
 * (code). What the XML writers guarantee by construction (identifiers, code lists, amounts) is
 * not repeated here; the corpus tests run the official rules over the output to prove it.
 */
type Role = 'seller' | 'buyer';
type Check = (c: RuleContext) => Omit<Issue, 'code'>[];

const blank = (value: string | undefined) => value === undefined || value.trim() === '';
const rule = (id: string, summary: string, check: Check): Rule => ({ id, summary, check });

/** A rule that asks for one field: `path` must be present when `applies`. */
function required(
  id: string,
  summary: string,
  path: string,
  value: (invoice: Invoice) => string | object | undefined,
  applies: (c: RuleContext) => boolean = () => true,
): Rule {
  return rule(id, summary, (c) => {
    if (!applies(c)) return [];
    const present = value(c.invoice);
    return present === undefined || (typeof present === 'string' && blank(present))
      ? [{ path, message: `is required (${id}): ${summary.split(' is required:')[0]!.split(': ')[0]}` }]
      : [];
  });
}

const partyField = (role: Role, field: keyof Party) => (invoice: Invoice) =>
  invoice[role][field] as string | object | undefined;
const isCreditNote = (c: RuleContext) => c.invoice.document_type === 'credit_note';
const hasCategory = (c: RuleContext, category: string) => c.categories.has(category as never);

/** The German rules, shared by XRechnung (BR-DE-n) and Peppol when seller and buyer are German (DE-R-00n). */
function germanRules(idOf: (n: number) => string, applies: (c: RuleContext) => boolean): Rule[] {
  return [
    // The official rule applies to credit notes too (their BG-16 names the account of the refund).
    required(
      idOf(1),
      'payment instructions (BG-16) are required, on credit notes too: payment.iban',
      'payment.iban',
      (invoice) => invoice.payment?.iban,
      applies,
    ),
    required(
      idOf(5),
      "the seller's contact point (BT-41) is required: seller.contact_name",
      'seller.contact_name',
      partyField('seller', 'contact_name'),
      applies,
    ),
    required(
      idOf(6),
      "the seller's contact telephone number (BT-42) is required: seller.phone",
      'seller.phone',
      partyField('seller', 'phone'),
      applies,
    ),
    required(
      idOf(7),
      "the seller's contact e-mail address (BT-43) is required: seller.email",
      'seller.email',
      partyField('seller', 'email'),
      applies,
    ),
    required(
      idOf(3),
      "the seller's city (BT-37) is required: seller.city",
      'seller.city',
      partyField('seller', 'city'),
      applies,
    ),
    required(
      idOf(4),
      "the seller's post code (BT-38) is required: seller.postal_code",
      'seller.postal_code',
      partyField('seller', 'postal_code'),
      applies,
    ),
    required(
      idOf(8),
      "the buyer's city (BT-52) is required: buyer.city",
      'buyer.city',
      partyField('buyer', 'city'),
      applies,
    ),
    required(
      idOf(9),
      "the buyer's post code (BT-53) is required: buyer.postal_code",
      'buyer.postal_code',
      partyField('buyer', 'postal_code'),
      applies,
    ),
    required(
      idOf(10),
      'a deliver-to address needs its city (BT-77): ship_to.city',
      'ship_to.city',
      (invoice) => invoice.ship_to?.city,
      (c) => applies(c) && c.invoice.ship_to !== undefined,
    ),
    required(
      idOf(11),
      'a deliver-to address needs its post code (BT-78): ship_to.postal_code',
      'ship_to.postal_code',
      (invoice) => invoice.ship_to?.postal_code,
      (c) => applies(c) && c.invoice.ship_to !== undefined,
    ),
    rule(
      idOf(14),
      'every VAT breakdown needs a rate (BT-119), which category O (not subject to VAT) cannot have',
      (c) =>
        applies(c) && hasCategory(c, 'O')
          ? c.totals.lineTax.flatMap((tax, at) =>
              tax.category === 'O'
                ? [
                    {
                      path: `line_items[${at}].tax_category`,
                      message:
                        'is O (not subject to VAT), which this profile cannot carry: its VAT breakdown needs a rate (BT-119)',
                    },
                  ]
                : [],
            )
          : [],
    ),
    required(
      idOf(15),
      'the buyer reference (BT-10) is required: buyer_reference (for public buyers their Leitweg-ID)',
      'buyer_reference',
      (invoice) => invoice.buyer_reference,
      applies,
    ),
  ];
}

const electronicAddress = (id: string, role: Role, bt: string) =>
  required(
    id,
    `the ${role}'s electronic address (${bt}) is required: ${role}.electronic_address { scheme, id }`,
    `${role}.electronic_address`,
    partyField(role, 'electronic_address'),
  );

/** |line amount − quantity × price| ≤ 0.02, exactly (bigint decimals). */
function lineNetWithin(quantity: number, price: number, lineMinor: bigint, digits: number): boolean {
  const q = decimalFromNumber(quantity);
  const p = decimalFromNumber(price);
  const scale = BigInt(q.scale + p.scale);
  const difference = lineMinor * 10n ** scale - q.coefficient * p.coefficient * 10n ** BigInt(digits);
  return (difference < 0n ? -difference : difference) * 100n <= 2n * 10n ** (scale + BigInt(digits));
}

const PEPPOL_BUSINESS_PROCESS = /^urn:fdc:peppol\.eu:2017:poacc:billing:[0-9]{2}:1\.0$/;

export const XRECHNUNG_RULES: readonly Rule[] = [
  ...germanRules(
    (n) => `BR-DE-${n}`,
    () => true,
  ),
  electronicAddress('PEPPOL-EN16931-R020', 'seller', 'BT-34'),
  electronicAddress('PEPPOL-EN16931-R010', 'buyer', 'BT-49'),
];

const both = (c: RuleContext, country: string) =>
  c.invoice.seller.country === country && c.invoice.buyer.country === country;
const sellerIn = (c: RuleContext, country: string) => c.invoice.seller.country === country;
const DUTCH_REGISTRATIONS = new Set(['0106', '0190']);

/** Peppol's national sections this service does not implement: refused rather than sold unchecked. */
const UNCHECKED_SECTIONS: Record<string, string> = {
  DK: 'DK-R',
  GR: 'GR-R',
  IS: 'IS-R',
  IT: 'IT-R',
  NO: 'NO-R',
  SE: 'SE-R',
};

export const PEPPOL_RULES: readonly Rule[] = [
  electronicAddress('PEPPOL-EN16931-R020', 'seller', 'BT-34'),
  electronicAddress('PEPPOL-EN16931-R010', 'buyer', 'BT-49'),
  rule(
    'PEPPOL-EN16931-CL008',
    'electronic addresses use a scheme of the Peppol EAS list, which has no EM (e-mail)',
    (c) =>
      (['seller', 'buyer'] as const).flatMap((role) =>
        c.invoice[role].electronic_address?.scheme === 'EM'
          ? [
              {
                path: `${role}.electronic_address.scheme`,
                message:
                  'is EM (e-mail), which the Peppol network does not use: give the Peppol participant identifier, e.g. 0208 (Belgian KBO), 0088 (GLN), 9930 (German VAT)',
              },
            ]
          : [],
      ),
  ),
  rule(
    'PEPPOL-EN16931-R120',
    'a line net amount (BT-131) is quantity × unit price within 0.02: a currency without cents (JPY) needs whole-number quantity × price',
    (c) =>
      c.invoice.line_items.flatMap((line, at) =>
        lineNetWithin(line.quantity, line.unit_price, c.totals.lineAmounts[at] ?? 0n, c.totals.digits)
          ? []
          : [
              {
                path: `line_items[${at}].quantity`,
                message: `times unit_price rounds to a line amount more than 0.02 ${c.invoice.currency} away from the exact product, which Peppol refuses: use a quantity and price whose product has at most ${c.totals.digits} decimals`,
              },
            ],
      ),
  ),
  rule(
    'PEPPOL-EN16931-R003',
    'a buyer reference (BT-10) or purchase order reference (BT-13) is required: buyer_reference or purchase_order',
    (c) =>
      blank(c.invoice.buyer_reference) && blank(c.invoice.purchase_order)
        ? [
            {
              path: 'buyer_reference',
              message:
                'is required when there is no purchase_order: Peppol needs a buyer reference (BT-10) or an order reference (BT-13)',
            },
          ]
        : [],
  ),
  rule(
    'PEPPOL-EN16931-R007',
    'the business process (BT-23) must be a Peppol billing process: urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0',
    (c) =>
      c.invoice.business_process !== undefined && !PEPPOL_BUSINESS_PROCESS.test(c.invoice.business_process)
        ? [
            {
              path: 'business_process',
              message:
                'must be a Peppol billing process such as urn:fdc:peppol.eu:2017:poacc:billing:01:1.0 (or be left out)',
            },
          ]
        : [],
  ),
  rule(
    'PEPPOL-EN16931-R002',
    'at most one invoice note unless seller and buyer are German: notes and legal_notes together',
    (c) =>
      !both(c, 'DE') && c.invoice.legal_notes !== undefined
        ? [
            {
              path: 'legal_notes',
              message:
                'writes three invoice notes, and Peppol allows one unless seller and buyer are German: leave legal_notes out',
            },
          ]
        : [],
  ),
  ...germanRules(
    (n) => `DE-R-${String(n).padStart(3, '0')}`,
    (c) => both(c, 'DE'),
  ),
  required(
    'NL-R-001',
    "a Dutch seller's credit note names the invoice it credits: preceding_invoice",
    'preceding_invoice',
    (invoice) => invoice.preceding_invoice,
    (c) => sellerIn(c, 'NL') && isCreditNote(c),
  ),
  required(
    'NL-R-002',
    "a Dutch seller's address has street, city and post code: seller.street",
    'seller.street',
    partyField('seller', 'street'),
    (c) => sellerIn(c, 'NL'),
  ),
  required(
    'NL-R-002',
    "a Dutch seller's address has street, city and post code: seller.city",
    'seller.city',
    partyField('seller', 'city'),
    (c) => sellerIn(c, 'NL'),
  ),
  required(
    'NL-R-002',
    "a Dutch seller's address has street, city and post code: seller.postal_code",
    'seller.postal_code',
    partyField('seller', 'postal_code'),
    (c) => sellerIn(c, 'NL'),
  ),
  rule(
    'NL-R-003',
    "a Dutch seller's legal registration is a KvK (0106) or OIN (0190) number: seller.legal_registration",
    (c) =>
      sellerIn(c, 'NL') && !DUTCH_REGISTRATIONS.has(c.invoice.seller.legal_registration?.scheme ?? '')
        ? [
            {
              path: 'seller.legal_registration',
              message: 'is required for a Dutch seller, with scheme 0106 (KvK) or 0190 (OIN)',
            },
          ]
        : [],
  ),
  required(
    'NL-R-004',
    "a Dutch buyer's address has street, city and post code: buyer.street",
    'buyer.street',
    partyField('buyer', 'street'),
    (c) => both(c, 'NL'),
  ),
  required(
    'NL-R-004',
    "a Dutch buyer's address has street, city and post code: buyer.city",
    'buyer.city',
    partyField('buyer', 'city'),
    (c) => both(c, 'NL'),
  ),
  required(
    'NL-R-004',
    "a Dutch buyer's address has street, city and post code: buyer.postal_code",
    'buyer.postal_code',
    partyField('buyer', 'postal_code'),
    (c) => both(c, 'NL'),
  ),
  rule(
    'NL-R-005',
    'a Dutch buyer of a Dutch seller has a KvK (0106) or OIN (0190) legal registration: buyer.legal_registration',
    (c) =>
      both(c, 'NL') && !DUTCH_REGISTRATIONS.has(c.invoice.buyer.legal_registration?.scheme ?? '')
        ? [
            {
              path: 'buyer.legal_registration',
              message: 'is required for a Dutch buyer of a Dutch seller, with scheme 0106 (KvK) or 0190 (OIN)',
            },
          ]
        : [],
  ),
  required(
    'NL-R-007',
    "a Dutch seller's invoice has payment means: payment.iban",
    'payment.iban',
    (invoice) => invoice.payment?.iban,
    (c) => sellerIn(c, 'NL') && !isCreditNote(c),
  ),
  rule(
    'PEPPOL-national',
    "Peppol's national rules for sellers in Denmark, Greece, Iceland, Italy, Norway and Sweden are not checked by this service, so it does not issue them",
    (c) => {
      const section = UNCHECKED_SECTIONS[c.invoice.seller.country ?? ''];
      return section
        ? [
            {
              path: 'seller.country',
              message: `is ${c.invoice.seller.country}: Peppol's ${section}-* rules for that country are not checked by this service, so it does not issue such Peppol invoices (use profile en16931)`,
            },
          ]
        : [];
    },
  ),
];

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

export const NATIONAL_RULES: Readonly<Record<EInvoiceProfile, readonly Rule[]>> = {
  en16931: [],
  xrechnung: XRECHNUNG_RULES,
  peppol: PEPPOL_RULES,
  fr: FR_RULES,
  ...PINT_RULES,
  hr: HR_RULES,
};
