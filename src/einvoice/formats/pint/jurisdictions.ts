import type { CurrencyCode } from '../../../invoice/currencies.js';
import type { VatCategory } from '../../../invoice/vatCategories.js';

/**
 * The six Peppol PINT jurisdictions this service writes: their specification identifier (BT-24),
 * tax scheme, tax category codes, tax currency and the country whose sellers they are for. Values
 * from the official rule sets in ../shared/einvoice/pint (see `pint/VERSION` there): the
 * jurisdiction-aligned rules name the identifier (aligned-ibrp-001-*), the category code lists
 * (aligned-ibrp-cl-01-*, BR-CL-17-GST-SG, ibr-139-ae) and the tax currency (aligned-ibr-jp-05,
 * ibr-140-ae, ibr-cl-05-my).
 */
export const PINT_PROFILES = ['pint-eu', 'pint-aunz', 'pint-sg', 'pint-jp', 'pint-my', 'pint-ae'] as const;
export type PintProfile = (typeof PINT_PROFILES)[number];

/** Every PINT billing document's business process (aligned-ibrp-002, PEPPOL-EN16931-R007-SG). */
export const PINT_BUSINESS_PROCESS = 'urn:peppol:bis:billing';

export interface PintJurisdiction {
  title: string;
  specification: string;
  /** The countries whose sellers it is for (A-NZ: both). */
  countries: readonly string[];
  /** cac:TaxScheme/cbc:ID of tax categories and of BT-31 (GST in A-NZ and Singapore). */
  taxScheme: 'VAT' | 'GST';
  /** The official rule versions, as validate reports them. */
  ruleSet: string;
  /** The rule id of the tax category code list. */
  categoryRule: string;
  /** The jurisdiction's codes (BT-151/BT-118), from the invoice's EN 16931 category and rate; absent: not in this jurisdiction. */
  categoryCodes: Partial<Record<VatCategory, string>>;
  /** Codes a line may name instead (tax_code), and the EN 16931 category each stands for. */
  lineCodes: Readonly<Record<string, VatCategory>>;
  /** Every code the official categoryRule accepts on a received document (some of them this service does not write). */
  officialCodes: readonly string[];
  /** The tax accounting currency (BT-6) the jurisdiction allows; undefined: any other than the invoice's. */
  taxCurrency: CurrencyCode | undefined;
  /** The rule that names it. */
  taxCurrencyRule: string | undefined;
  /** A foreign-currency invoice must state its tax in taxCurrency (the exchange rate is then required). */
  taxCurrencyRequired: boolean;
}

const SHARED = 'Peppol PINT 1.1.3 shared rules (ibr-*)';

export const PINT_JURISDICTIONS: Readonly<Record<PintProfile, PintJurisdiction>> = {
  'pint-eu': {
    title: 'Peppol PINT EU',
    specification: 'urn:peppol:pint:billing-1@eu-1',
    countries: [],
    taxScheme: 'VAT',
    ruleSet: `${SHARED}, PINT EU 1.1.1 (EN 16931-aligned BR-*, PEPPOL-EN16931-*)`,
    categoryRule: 'BR-CL-18',
    categoryCodes: { S: 'S', Z: 'Z', E: 'E', AE: 'AE', K: 'K', G: 'G', O: 'O' },
    lineCodes: {},
    officialCodes: ['AE', 'L', 'M', 'E', 'S', 'Z', 'G', 'O', 'K', 'B'],
    taxCurrency: undefined,
    taxCurrencyRule: 'PEPPOL-EN16931-R005',
    taxCurrencyRequired: false,
  },
  'pint-aunz': {
    title: 'Peppol PINT A-NZ (Australia and New Zealand)',
    specification: 'urn:peppol:pint:billing-1@aunz-1',
    countries: ['AU', 'NZ'],
    taxScheme: 'GST',
    ruleSet: `${SHARED}, PINT A-NZ 1.1.3 (aligned-ibrp-*-aunz, aligned-ibr-*-aunz)`,
    categoryRule: 'aligned-ibrp-cl-01-aunz',
    categoryCodes: { S: 'S', Z: 'Z', E: 'E', G: 'G', O: 'O' },
    lineCodes: {},
    officialCodes: ['E', 'S', 'Z', 'G', 'O'],
    taxCurrency: undefined,
    taxCurrencyRule: undefined,
    taxCurrencyRequired: false,
  },
  'pint-sg': {
    title: 'Peppol PINT SG (Singapore, with IRAS GST rules)',
    specification: 'urn:peppol:pint:billing-1@sg-1',
    countries: ['SG'],
    taxScheme: 'GST',
    ruleSet: `${SHARED}, PINT SG 1.4.1 (BR-*-GST-SG, PEPPOL-EN16931-*-SG)`,
    categoryRule: 'BR-CL-18-GST-SG',
    categoryCodes: { S: 'SR', Z: 'ZR', E: 'ESN33', O: 'OS' },
    lineCodes: { SR: 'S', 'SRCA-S': 'S', ZR: 'Z', ES33: 'E', ESN33: 'E', OS: 'O' },
    officialCodes: [
      'SR',
      'SRCA-S',
      'SRCA-C',
      'ZR',
      'ES33',
      'ESN33',
      'DS',
      'OS',
      'NA',
      'NG',
      'SRRC',
      'SROVR-RS',
      'SROVR-LVG',
      'SRLVG',
    ],
    taxCurrency: 'SGD',
    taxCurrencyRule: 'BR-53-GST-SG',
    taxCurrencyRequired: true,
  },
  'pint-jp': {
    title: 'Peppol PINT JP (Japan, qualified invoice)',
    specification: 'urn:peppol:pint:billing-1@jp-1',
    countries: ['JP'],
    taxScheme: 'VAT',
    ruleSet: `${SHARED}, PINT JP 1.1.3 (aligned-ibrp-*-jp, aligned-ibr-jp-*)`,
    categoryRule: 'aligned-ibrp-cl-01-jp',
    // The reduced 8 % rate is category AA; a line at 8 % in S is written as AA.
    categoryCodes: { S: 'S', E: 'E', G: 'G', O: 'O' },
    lineCodes: { S: 'S', AA: 'S' },
    officialCodes: ['AA', 'E', 'S', 'G', 'O'],
    taxCurrency: 'JPY',
    taxCurrencyRule: 'aligned-ibr-jp-05',
    taxCurrencyRequired: true,
  },
  'pint-my': {
    title: 'Peppol PINT MY (Malaysia)',
    specification: 'urn:peppol:pint:billing-1@my-1',
    countries: ['MY'],
    taxScheme: 'VAT',
    ruleSet: `${SHARED}, PINT MY 1.3.1 (aligned-ibrp-*-my, ibr-*-my)`,
    categoryRule: 'aligned-ibrp-cl-01-my',
    categoryCodes: { S: 'SA', E: 'E', O: 'O' },
    lineCodes: { SA: 'S', SE: 'S', E: 'E', O: 'O' },
    officialCodes: ['SA', 'SE', 'HVG', 'LVG', 'E', 'O', 'TTX'],
    taxCurrency: 'MYR',
    taxCurrencyRule: 'ibr-cl-05-my',
    taxCurrencyRequired: false,
  },
  'pint-ae': {
    title: 'Peppol PINT AE (United Arab Emirates)',
    specification: 'urn:peppol:pint:billing-1@ae-1',
    countries: ['AE'],
    taxScheme: 'VAT',
    ruleSet: `${SHARED} as adapted for the UAE, PINT AE 2026.5 = 1.0.4 (ibr-*-ae, aligned-ibrp-*-ae)`,
    categoryRule: 'ibr-139-ae',
    categoryCodes: { S: 'S', Z: 'Z', E: 'E', AE: 'AE', O: 'O' },
    lineCodes: {},
    officialCodes: ['S', 'E', 'O', 'AE', 'Z', 'N'],
    taxCurrency: 'AED',
    taxCurrencyRule: 'ibr-159-ae',
    taxCurrencyRequired: true,
  },
};

/** The code a line is written with: its tax_code, or the jurisdiction's code for its category (JP: AA at 8 %). */
export function pintCategoryCode(
  jurisdiction: PintJurisdiction,
  category: VatCategory,
  rate: string | undefined,
  taxCode: string | undefined,
): string | undefined {
  if (taxCode !== undefined) return jurisdiction.lineCodes[taxCode] === category ? taxCode : undefined;
  if (jurisdiction === PINT_JURISDICTIONS['pint-jp'] && category === 'S' && rate === '8') return 'AA';
  return jurisdiction.categoryCodes[category];
}

/**
 * Japan's invoice of a seller that is not tax-registered (JP PINT non-tax, BT-24
 * urn:peppol:pint:nontaxinvoice-1@jp-1): its breakdown names the rate of the goods but the seller
 * charges no consumption tax, so its tax amounts are 0 by its rules, not a rounding difference.
 */
export const statesNoTax = (customization: string) =>
  customization.trim().startsWith('urn:peppol:pint:nontaxinvoice-1@');
