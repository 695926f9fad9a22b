import { defineFormat } from '../format.js';
import { CEN_RULE_SET, EN16931_SPECIFICATION } from '../identifiers.js';
import { FR_EXAMPLE } from './example.js';
import { FR_RULES } from './rules.js';

/** BR-FR-08's invoicing framework codes (BT-23), B9/S9/M9 (self-billing) included: a French document may carry them. */
const FRENCH_FRAMEWORK = /^[BSM][1-9]$/;

/** France: EN 16931 with the BR-FR "flux 2" rules (FNFE-MPE). */
export const fr = defineFormat({
  id: 'fr',
  title: 'France (EN 16931 with BR-FR flux 2)',
  blurb: 'France, EN 16931 with the BR-FR flux 2 rules; CII, UBL or Factur-X',
  writes: ['cii', 'ubl', 'factur-x'],
  specification: EN16931_SPECIFICATION,
  hybrid: { fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' },
  ruleSets: [CEN_RULE_SET, 'FNFE-MPE BR-FR flux 2, EN16931 profile, France_RFE 1.4.0.03 (BR-FR-*)'],
  requiredFields: [
    'seller.legal_registration with scheme 0002 (the SIREN, BT-30)',
    'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; e.g. 0225, 0002 SIREN, 0009 SIRET)',
    'business_process: the invoicing framework B1 (goods), S1 (services), M1 (mixed), … (BT-23)',
    'legal_notes (PMT, PMD, AAB; {} writes the statutory wording)',
    'currency EUR; VAT rates 20, 10, 5.5, 2.1 (and the overseas rates 8.5, 1.75, 1.05, 0.9, 13, 7, 9.2, 9.6, 19.6, 20.6)',
    'invoice_number of at most 35 letters, digits and + - _ /; a credit note names preceding_invoice with its issue_date',
  ],
  checks: { rules: FR_RULES },
  // French documents carry the plain EN 16931 identifier: a French seller naming a French
  // invoicing framework (BT-23 B1, S1, M1, …) tells them apart.
  reading: {
    recognises: (document) =>
      document.seller.address?.country === 'FR' && FRENCH_FRAMEWORK.test(document.profile?.trim() ?? ''),
  },
  docs: {
    whatYouGet: 'EN 16931 with France\'s BR-FR "flux 2" rules',
    formats: 'CII, UBL, Factur-X (EN 16931, `factur-x.xml`)',
    businessProcess: 'your invoicing framework code (`B1`, `S1`, `M1`, …), required',
  },
  example: FR_EXAMPLE,
});
