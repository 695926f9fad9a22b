import type { Issue } from '../../../errors.js';
import { currencyDigits } from '../../../invoice/currencies.js';
import { decimalFromNumber, significantScale } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { checkEn16931, type Rule } from '../../rules.js';
import { blank, rule } from '../ruleHelpers.js';
import { PINT_JURISDICTIONS, PINT_PROFILES, pintCategoryCode, type PintProfile } from './jurisdictions.js';
import { productDecimals, sellerTaxNumber, taxNumberFormat, when } from './ruleParts.js';
import { UAE_RULES } from './uaeRules.js';

/**
 * The Peppol PINT rules a request of this service can break, written from the official rule texts
 * (../shared/einvoice/pint: the shared ibr-* rules and each jurisdiction's aligned rules), each issue
 * naming the request field and the official rule id. What the UBL writer guarantees by construction
 * (identifiers, code lists, sums, decimals) is not repeated; the PINT corpus test runs the official
 * rules over the output to prove it.
 */

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
    taxNumberFormat('aligned-ibr-jp-01', { roles: ['seller'], sellerCountry: 'JP' }),
    taxNumberFormat('jp_registration_number', { roles: ['buyer'] }),
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
  'pint-ae': UAE_RULES,
};

/** The business processes (BT-23) each jurisdiction's rules allow; the EU's any. */
const BUSINESS_PROCESSES: Partial<Record<PintProfile, [id: string, allowed: string[]]>> = {
  'pint-aunz': ['aligned-ibrp-002', ['urn:peppol:bis:billing']],
  'pint-sg': ['PEPPOL-EN16931-R007-SG', ['urn:peppol:bis:billing']],
  'pint-jp': ['aligned-ibrp-002-jp', ['urn:peppol:bis:billing', 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0']],
  'pint-my': ['aligned-ibrp-002', ['urn:peppol:bis:billing']],
  'pint-ae': ['aligned-ibrp-002-ae', ['urn:peppol:bis:billing', 'urn:peppol:bis:selfbilling']],
};

const businessProcessRule = (profile: PintProfile): Rule[] => {
  const [id, allowed] = BUSINESS_PROCESSES[profile] ?? [];
  if (id === undefined || allowed === undefined) return [];
  return [
    rule(id, `the business process (BT-23) is ${allowed.join(' or ')}: business_process`, (c) =>
      when(
        c.invoice.business_process !== undefined && !allowed.includes(c.invoice.business_process),
        'business_process',
        `must be ${allowed.join(' or ')} under ${PINT_JURISDICTIONS[profile].title} (${id}); leave it out for the first`,
      ),
    ),
  ];
};

export const PINT_RULES = Object.fromEntries(
  PINT_PROFILES.map((profile) => [
    profile,
    [
      ...sharedRules,
      categoryRule(profile),
      ...taxCurrencyRule(profile),
      ...businessProcessRule(profile),
      ...JURISDICTION_RULES[profile],
    ],
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
