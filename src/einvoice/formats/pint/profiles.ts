import type { ProfileDefinition } from '../../profiles.js';
import { adaptPint } from './pintDocument.js';
import { pintBaseIssues } from './rules.js';
import { PINT_BUSINESS_PROCESS, PINT_JURISDICTIONS, PINT_PROFILES, type PintProfile } from './jurisdictions.js';

/** The fields every PINT profile asks for (the shared and jurisdiction rules in rules.ts). */
const SHARED_FIELDS = [
  'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; a Peppol EAS scheme, not EM)',
  'buyer_reference or purchase_order (BT-10 or BT-13)',
  'due_date or payment_instructions when an amount is due',
  'tax_currency { code, exchange_rate } where the jurisdiction states tax in its own currency (BT-6, BT-111)',
];

const JURISDICTION_FIELDS: Record<PintProfile, readonly string[]> = {
  'pint-eu': ['seller.vat_id (or legal_registration) as in EN 16931', 'at most one note'],
  'pint-aunz': [
    'seller.tax_registration_number: the ABN (AU, check digits) or GST number (NZ, IRD check digit) of a GST-registered seller',
    'seller.legal_registration { scheme: "0151", id: ABN } for an Australian seller, { scheme: "0088", id: NZBN } for a New Zealand one; the same for an Australian or New Zealand buyer',
    'tax categories S, Z, E, G, O (GST 10 % in AU, 15 % in NZ)',
  ],
  'pint-sg': [
    'seller.tax_registration_number: the GST registration number (UEN or M-series)',
    'buyer.country',
    'tax categories S (SR), Z (ZR), E (ESN33; tax_code ES33), O (OS); GST 9 %',
    'a foreign-currency invoice names tax_currency { code: "SGD", exchange_rate } (IRAS: GST in SGD)',
  ],
  'pint-jp': [
    'seller.tax_registration_number: the qualified-invoice registration number T + 13 digits (check digit)',
    'invoicing_period (ibg-14; the transaction date)',
    'tax categories S (10 %), S at 8 % written AA (reduced rate), E, G, O; currency JPY amounts are whole yen',
    'a foreign-currency invoice names tax_currency { code: "JPY", exchange_rate }',
  ],
  'pint-my': [
    'seller.tax_id: the TIN (BT-32); seller.legal_registration and buyer.legal_registration: the BRN (BT-30, BT-47)',
    'tax categories SA (sales tax, default for S), SE (service tax, tax_code), E, O',
  ],
  'pint-ae': [
    'seller.tax_registration_number and, for reverse charge, buyer.tax_registration_number: the TRN (15 digits, 1…03)',
    'due_date when an amount is due; a payment means (payment.iban) on invoices',
    'tax categories S (5 %), Z, E, O, AE; a foreign-currency invoice names tax_currency { code: "AED", exchange_rate }',
  ],
};

export const PINT_PROFILE_DEFINITIONS = Object.fromEntries(
  PINT_PROFILES.map((profile) => {
    const jurisdiction = PINT_JURISDICTIONS[profile];
    const definition: ProfileDefinition = {
      title: jurisdiction.title,
      specification: jurisdiction.specification,
      defaultBusinessProcess: PINT_BUSINESS_PROCESS,
      formats: ['ubl'],
      ruleSets: [jurisdiction.ruleSet],
      hybrid: undefined,
      requiredFields: [...SHARED_FIELDS, ...JURISDICTION_FIELDS[profile]],
      adapt: adaptPint(profile),
      ...(profile === 'pint-eu' ? {} : { baseRules: pintBaseIssues }),
    };
    return [profile, definition];
  }),
) as Record<PintProfile, ProfileDefinition>;
