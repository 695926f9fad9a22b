import type { Issue } from '../../../errors.js';
import { currencyDigits } from '../../../invoice/currencies.js';
import { decimalFromNumber, significantScale } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { checkEn16931, type Rule } from '../../rules.js';
import { blank, rule } from '../ruleHelpers.js';
import { PINT_JURISDICTIONS, PINT_PROFILES, pintCategoryCode, type PintProfile } from './jurisdictions.js';
import { TAX_IDENTIFIERS } from './taxIdentifiers.js';

/**
 * The Peppol PINT rules a request of this service can break, written from the official rule texts
 * (../shared/einvoice/pint: the shared ibr-* rules and each jurisdiction's aligned rules), each issue
 * naming the request field and the official rule id. What the UBL writer guarantees by construction
 * (identifiers, code lists, sums, decimals) is not repeated; the PINT corpus test runs the official
 * rules over the output to prove it.
 */
const when = (failed: boolean, path: string, message: string) => (failed ? [{ path, message }] : []);

const sharedRules: readonly Rule[] = [
  rule('ibr-081', "the seller's electronic address (BT-34) is required: seller.electronic_address", (c) =>
    when(!c.invoice.seller.electronic_address, 'seller.electronic_address', 'is required by Peppol PINT (ibr-081)'),
  ),
  rule('ibr-080', "the buyer's electronic address (BT-49) is required: buyer.electronic_address", (c) =>
    when(!c.invoice.buyer.electronic_address, 'buyer.electronic_address', 'is required by Peppol PINT (ibr-080)'),
  ),
  rule('ibr-cl-25', 'electronic addresses use a Peppol EAS scheme, which has no EM (e-mail)', (c) =>
    (['seller', 'buyer'] as const).flatMap((role) =>
      when(
        c.invoice[role].electronic_address?.scheme === 'EM',
        `${role}.electronic_address.scheme`,
        'is EM (e-mail), which the Peppol network does not use: give a Peppol participant identifier (e.g. 0151 ABN, 0195 UEN, 0188 corporate number)',
      ),
    ),
  ),
  rule('ibr-011', "the buyer's country (BT-55) is required: buyer.country", (c) =>
    when(c.invoice.buyer.country === undefined, 'buyer.country', 'is required by Peppol PINT (ibr-011)'),
  ),
  rule('ibr-077', 'the tax currency (BT-6) differs from the invoice currency', (c) =>
    when(
      c.invoice.tax_currency?.code === c.invoice.currency,
      'tax_currency.code',
      `is the invoice currency ${c.invoice.currency}; leave tax_currency out when the tax is stated in the invoice currency (ibr-077)`,
    ),
  ),
];

/**
 * The jurisdiction's tax identifier format and check digits on seller and buyer. Japan (aligned-ibr-jp-01)
 * and the UAE (ibr-132-ae) have official rules for the shape; the check digits, and the formats in A-NZ,
 * Singapore and Malaysia, are this service's own checks (snake_case ids: aunz_tax_number,
 * sg_gst_registration_number, my_tin), so a number no authority issued is not sold.
 */
const taxNumberFormat = (id: string): Rule =>
  rule(id, "tax_registration_number has the format and check digits of the party's country", (c) =>
    (['seller', 'buyer'] as const).flatMap((role) => {
      const number = c.invoice[role].tax_registration_number;
      const known = TAX_IDENTIFIERS[c.invoice[role].country ?? ''];
      return number === undefined || known === undefined || known.valid(number)
        ? []
        : [
            {
              path: `${role}.tax_registration_number`,
              message: `is not a valid ${known.name}: must be ${known.format}`,
            },
          ];
    }),
  );

const sellerTaxNumber = (id: string, what: string): Rule =>
  rule(id, `the seller's ${what} (BT-31) is required: seller.tax_registration_number`, (c) =>
    when(
      blank(c.invoice.seller.tax_registration_number),
      'seller.tax_registration_number',
      `is required: the seller's ${what} (BT-31, ${id})`,
    ),
  );

/** Every line's category (or tax_code) exists in the jurisdiction; one code per category and rate. */
const categoryRule = (profile: PintProfile): Rule => {
  const jurisdiction = PINT_JURISDICTIONS[profile];
  return rule(jurisdiction.categoryRule, `tax categories are those of ${jurisdiction.title}`, (c) => {
    const seen = new Map<string, string>();
    return c.totals.lineTax.flatMap((tax, at) => {
      const line = c.invoice.line_items[at]!;
      const rate = tax.category === 'O' ? undefined : String(Number(tax.rate.coefficient) / 10 ** tax.rate.scale);
      const code = pintCategoryCode(jurisdiction, tax.category, rate, line.tax_code);
      if (code === undefined)
        return line.tax_code !== undefined
          ? [
              {
                path: `line_items[${at}].tax_code`,
                message: `is not a ${jurisdiction.title} code for category ${tax.category} (${Object.keys(jurisdiction.lineCodes).join(', ') || 'none'})`,
              },
            ]
          : [
              {
                path: `line_items[${at}].tax_category`,
                message: `is ${tax.category}, which ${jurisdiction.title} does not have (${Object.keys(jurisdiction.categoryCodes).join(', ')})`,
              },
            ];
      const key = `${tax.category}/${rate}`;
      const other = seen.get(key);
      seen.set(key, other ?? code);
      return other !== undefined && other !== code
        ? [
            {
              path: `line_items[${at}].tax_code`,
              message: `is ${code}, but another line of category ${tax.category} at the same rate is ${other}: one code per category and rate`,
            },
          ]
        : [];
    });
  });
};

/** The tax currency: the jurisdiction's own, required with its rate for a foreign-currency invoice. */
const taxCurrencyRule = (profile: PintProfile): Rule[] => {
  const { taxCurrency, taxCurrencyRule: id, taxCurrencyRequired, title } = PINT_JURISDICTIONS[profile];
  if (taxCurrency === undefined || id === undefined) return [];
  return [
    rule(id, `tax is stated in ${taxCurrency}: tax_currency.code ${taxCurrency}`, (c) => {
      const given = c.invoice.tax_currency;
      if (given !== undefined && given.code !== taxCurrency)
        return [{ path: 'tax_currency.code', message: `must be ${taxCurrency} under ${title} (${id})` }];
      return when(
        taxCurrencyRequired && given === undefined && c.invoice.currency !== taxCurrency,
        'tax_currency',
        `is required: an invoice in ${c.invoice.currency} states its tax in ${taxCurrency} too, { "code": "${taxCurrency}", "exchange_rate": <${taxCurrency} per ${c.invoice.currency}> } (${id}); the service never fetches a rate`,
      );
    }),
  ];
};

/** Decimals of quantity × price, exactly (the product of two decimals, trailing zeros dropped). */
function productDecimals(quantity: number, price: number): number {
  const q = decimalFromNumber(quantity);
  const p = decimalFromNumber(price);
  return significantScale({ coefficient: q.coefficient * p.coefficient, scale: q.scale + p.scale });
}

/** JPY has no minor unit: line amounts, discount and amount paid are whole yen (aligned-ibr-jp-06). */
const wholeAmounts = (id: string): Rule =>
  rule(id, 'a currency without minor units (JPY) has whole line amounts, discount and amount paid', (c) => {
    const digits = currencyDigits(c.invoice.currency);
    if (digits > 0) return [];
    const fraction = `has decimals, which ${c.invoice.currency} does not have (${id})`;
    const tooFine = (value: number | undefined) =>
      value !== undefined && significantScale(decimalFromNumber(value)) > digits;
    return [
      ...c.invoice.line_items.flatMap((line, at) =>
        when(
          productDecimals(line.quantity, line.unit_price) > digits,
          `line_items[${at}].unit_price`,
          `times quantity ${fraction}`,
        ),
      ),
      ...when(tooFine(c.invoice.discount), 'discount', fraction),
      ...when(tooFine(c.invoice.amount_paid), 'amount_paid', fraction),
    ];
  });

const sellerLegal = (id: string, country: string, scheme: string, what: string, role: 'seller' | 'buyer'): Rule =>
  rule(id, `a ${country} ${role} names its ${what}: ${role}.legal_registration { scheme: "${scheme}" }`, (c) =>
    when(
      c.invoice[role].country === country && c.invoice[role].legal_registration?.scheme !== scheme,
      `${role}.legal_registration`,
      `is required with scheme ${scheme} (${what}) for a party in ${country} (${id})`,
    ),
  );

const JURISDICTION_RULES: Record<PintProfile, readonly Rule[]> = {
  'pint-eu': [
    rule('PEPPOL-EN16931-R003', 'a buyer reference (BT-10) or purchase order (BT-13) is required', (c) =>
      when(
        blank(c.invoice.buyer_reference) && blank(c.invoice.purchase_order),
        'buyer_reference',
        'is required when there is no purchase_order (PEPPOL-EN16931-R003)',
      ),
    ),
    rule('PEPPOL-EN16931-R002', 'at most one note (BT-22)', (c) =>
      when(
        c.invoice.legal_notes !== undefined && !blank(c.invoice.notes),
        'legal_notes',
        'cannot be given with notes: PINT EU allows one note (PEPPOL-EN16931-R002)',
      ),
    ),
  ],
  'pint-aunz': [
    taxNumberFormat('aunz_tax_number'),
    sellerLegal('aligned-ibr-001-aunz', 'AU', '0151', 'ABN', 'seller'),
    sellerLegal('aligned-ibr-004-aunz', 'AU', '0151', 'ABN', 'buyer'),
    sellerLegal('aligned-ibr-002-aunz', 'NZ', '0088', 'NZBN', 'seller'),
    sellerLegal('aligned-ibr-005-aunz', 'NZ', '0088', 'NZBN', 'buyer'),
    rule('aligned-ibrp-003', 'a buyer reference (BT-10) or purchase order (BT-13) is required', (c) =>
      when(
        blank(c.invoice.buyer_reference) && blank(c.invoice.purchase_order),
        'buyer_reference',
        'is required when there is no purchase_order (aligned-ibrp-003)',
      ),
    ),
  ],
  'pint-sg': [
    taxNumberFormat('sg_gst_registration_number'),
    sellerTaxNumber('BR-105-GST-SG', 'GST registration number'),
    rule(
      'BR-112-GST-SG',
      "a GST-registered seller's legal registration (BT-30) is required: seller.legal_registration",
      (c) =>
        when(
          c.invoice.seller.legal_registration === undefined,
          'seller.legal_registration',
          'is required: the seller\'s UEN, { "scheme": "0195", "id": "200212345Z" } (BR-112-GST-SG)',
        ),
    ),
    rule('PEPPOL-EN16931-R003-SG', 'a buyer reference (BT-10) or purchase order (BT-13) is required', (c) =>
      when(
        blank(c.invoice.buyer_reference) && blank(c.invoice.purchase_order),
        'buyer_reference',
        'is required when there is no purchase_order (PEPPOL-EN16931-R003-SG)',
      ),
    ),
  ],
  'pint-jp': [
    taxNumberFormat('aligned-ibr-jp-01'),
    sellerTaxNumber('aligned-ibr-jp-04', 'qualified-invoice registration number'),
    rule('aligned-ibrp-052', 'an invoicing period (BG-14) is required: invoicing_period', (c) =>
      when(
        c.invoice.invoicing_period === undefined,
        'invoicing_period',
        'is required by PINT JP: the period (or day) of the transaction (aligned-ibrp-052)',
      ),
    ),
    wholeAmounts('aligned-ibr-jp-06'),
  ],
  'pint-my': [
    taxNumberFormat('my_tin'),
    rule('ibr-04-my', "the seller's TIN (BT-32) is required: seller.tax_id", (c) =>
      when(blank(c.invoice.seller.tax_id), 'seller.tax_id', "is required: the seller's Malaysian TIN (ibr-04-my)"),
    ),
    rule('ibr-02-my', "the seller's BRN (BT-30) is required: seller.legal_registration", (c) =>
      when(
        c.invoice.seller.legal_registration === undefined,
        'seller.legal_registration',
        "is required: the seller's business registration number (ibr-02-my)",
      ),
    ),
    rule('ibr-03-my', "the buyer's BRN (BT-47) is required: buyer.legal_registration", (c) =>
      when(
        c.invoice.buyer.legal_registration === undefined,
        'buyer.legal_registration',
        "is required: the buyer's business registration number (ibr-03-my)",
      ),
    ),
  ],
  'pint-ae': [
    taxNumberFormat('ibr-132-ae'),
    sellerTaxNumber('ibr-134-ae', 'TRN'),
    rule(
      'ibr-150-ae',
      "the seller's legal registration (BT-30, the trade licence) is required: seller.legal_registration",
      (c) =>
        when(
          c.invoice.seller.legal_registration === undefined,
          'seller.legal_registration',
          "is required: the seller's trade licence number (ibr-150-ae)",
        ),
    ),
    // The official rule reads the seller's trade licence only (AccountingSupplierParty).
    rule(
      'ibr-172-ae',
      "the seller's trade licence names its issuing authority: seller.legal_registration.issuer",
      (c) =>
        when(
          c.invoice.seller.legal_registration !== undefined && blank(c.invoice.seller.legal_registration.issuer),
          'seller.legal_registration.issuer',
          'is required by PINT AE: the authority that issued the trade licence (ibr-172-ae)',
        ),
    ),
    ...(['seller', 'buyer'] as const).map((role) =>
      rule(
        role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae',
        `the ${role}'s street, city and emirate are required`,
        (c) => [
          ...when(
            blank(c.invoice[role].street),
            `${role}.street`,
            `is required by PINT AE (${role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae'})`,
          ),
          ...when(
            blank(c.invoice[role].city),
            `${role}.city`,
            `is required by PINT AE (${role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae'})`,
          ),
          ...when(
            blank(c.invoice[role].country_subdivision),
            `${role}.country_subdivision`,
            `is required by PINT AE: the emirate code such as DXB, AUH, SHJ (${role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae'})`,
          ),
        ],
      ),
    ),
    rule('ibr-158-ae', 'a UAE credit note names its reason code (BTAE-03): credit_note_reason_code', (c) =>
      when(
        c.invoice.document_type === 'credit_note' && c.invoice.credit_note_reason_code === undefined,
        'credit_note_reason_code',
        'is required on a PINT AE credit note: DL8.61.1.A to DL8.61.1.E (with preceding_invoice) or VD (ibr-158-ae)',
      ),
    ),
    rule('ibr-055-ae', 'a UAE credit note names the invoice it credits (BG-3), except a volume discount (VD)', (c) => {
      const reason = c.invoice.credit_note_reason_code;
      if (c.invoice.document_type !== 'credit_note' || reason === undefined) return [];
      return reason === 'VD'
        ? when(
            !!c.invoice.preceding_invoice,
            'preceding_invoice',
            'must be left out when credit_note_reason_code is VD (ibr-055-ae)',
          )
        : when(
            !c.invoice.preceding_invoice,
            'preceding_invoice',
            `is required when credit_note_reason_code is ${reason} (ibr-055-ae)`,
          );
    }),
    rule('ibr-167-ae', 'exempt lines name their exemption reason code (IBT-186): tax_exemption_code', (c) =>
      when(
        c.categories.has('E') && c.invoice.tax_exemption_code === undefined,
        'tax_exemption_code',
        'is required for exempt (E) lines under PINT AE, e.g. VATEX-AE-EDU (ibr-167-ae)',
      ),
    ),
    rule('ibr-151-ae', 'an invoice has lines other than exempt (E) and out of scope (O)', (c) =>
      when(
        [...c.categories].every((category) => category === 'E' || category === 'O'),
        'line_items',
        'are all exempt (E) or out of scope (O), which a UAE tax invoice or credit note cannot be (ibr-151-ae)',
      ),
    ),
    rule('ibr-147-ae', 'quantity × unit price has at most 2 decimals', (c) =>
      c.invoice.line_items.flatMap((line, at) =>
        when(
          productDecimals(line.quantity, line.unit_price) > currencyDigits(c.invoice.currency),
          `line_items[${at}].quantity`,
          `times unit_price has more than ${currencyDigits(c.invoice.currency)} decimals: PINT AE compares the line amount with the product computed in floating point, so the rounded line amount can disagree (ibr-147-ae)`,
        ),
      ),
    ),
    rule('ibr-103-ae', 'reverse-charge lines need the buyer TRN (BT-48): buyer.tax_registration_number', (c) =>
      when(
        c.categories.has('AE') && blank(c.invoice.buyer.tax_registration_number),
        'buyer.tax_registration_number',
        'is required for reverse-charge (AE) lines (ibr-103-ae)',
      ),
    ),
    rule('ibr-127-ae', 'an amount due needs a due date (BT-9): due_date', (c) =>
      when(
        c.invoice.document_type !== 'credit_note' && c.totals.balanceDue > 0n && c.invoice.due_date === undefined,
        'due_date',
        'is required by PINT AE when an amount is due (ibr-127-ae)',
      ),
    ),
    rule('ibr-154-ae', 'only the plain transaction type 00000000 is written by this service', (c) =>
      when(
        c.invoice.transaction_type !== undefined && c.invoice.transaction_type !== '00000000',
        'transaction_type',
        'must be 00000000: the special UAE transactions (free zone, deemed supply, margin scheme, summary, continuous, agent, e-commerce, exports) need fields this service does not write (ibr-154-ae)',
      ),
    ),
  ],
};

export const PINT_RULES = Object.fromEntries(
  PINT_PROFILES.map((profile) => [
    profile,
    [...sharedRules, categoryRule(profile), ...taxCurrencyRule(profile), ...JURISDICTION_RULES[profile]],
  ]),
) as unknown as Record<PintProfile, readonly Rule[]>;

/**
 * EN 16931's rules as Peppol PINT outside the EU has them (../shared/einvoice/pint): the shared PINT
 * rules carry four of those rules.ts checks under their own ids, Singapore BR-CO-25 as BR-CO-25-SG
 * (BR-11 is ibr-011 above). The tax category rules on tax identifiers and exemption reasons (BR-S-02,
 * BR-O-02, BR-E-10…) and BR-CO-25 elsewhere are in no PINT jurisdiction's rules, which have their own
 * (aligned-ibr-jp-04, ibr-134-ae, ibr-167-ae…), and BR-CO-09's VAT prefix is not a tax registration
 * number's. The tax identifier is tax_registration_number.
 */
const PINT_IDS: Readonly<Record<string, string>> = {
  'BR-09': 'ibr-009',
  'BR-57': 'ibr-057',
  'BR-CO-26': 'ibr-co-26',
  'BR-CL-23': 'ibr-cl-23',
};
const PINT_SG_IDS: Readonly<Record<string, string>> = { ...PINT_IDS, 'BR-CO-25': 'BR-CO-25-SG' };

export const pintBaseIssues =
  (profile: PintProfile) =>
  ({ invoice, totals }: PreparedInvoice): Issue[] => {
    const view = {
      ...invoice,
      seller: { ...invoice.seller, vat_id: invoice.seller.tax_registration_number ?? invoice.seller.vat_id },
      buyer: { ...invoice.buyer, vat_id: invoice.buyer.tax_registration_number ?? invoice.buyer.vat_id },
    };
    const ids = profile === 'pint-sg' ? PINT_SG_IDS : PINT_IDS;
    return checkEn16931(view, totals).flatMap((issue) => {
      const code = ids[issue.code];
      if (code === undefined) return [];
      const path =
        issue.path.endsWith('.vat_id') && invoice.seller.country !== undefined
          ? issue.path.replace('.vat_id', '.tax_registration_number')
          : issue.path;
      return [{ path, code, message: issue.message.replace('EN 16931', 'Peppol PINT') }];
    });
  };
