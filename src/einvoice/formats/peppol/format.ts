import { defineFormat } from '../format.js';
import { CEN_RULE_SET, PEPPOL_BILLING_PROCESS } from '../identifiers.js';
import { PEPPOL_EXAMPLE } from './example.js';
import { PEPPOL_RULES } from './rules.js';

const SPECIFICATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';

/** Peppol BIS Billing 3.0: Belgium's B2B mandate, the Nordics, the Netherlands, …; UBL only. */
export const peppol = defineFormat({
  id: 'peppol',
  title: 'Peppol BIS Billing 3.0',
  blurb: 'Peppol BIS Billing 3.0, UBL only',
  writes: ['ubl'],
  specification: SPECIFICATION,
  defaultBusinessProcess: PEPPOL_BILLING_PROCESS,
  ruleSets: [
    CEN_RULE_SET,
    'OpenPEPPOL BIS Billing 3.0.21 (PEPPOL-EN16931-*, PEPPOL-COMMON-*, the German DE-R-* and Dutch NL-R-* sections)',
  ],
  requiredFields: [
    'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; a Peppol EAS scheme such as 0208 Belgian KBO, 0088 GLN, 9930 German VAT; not EM)',
    'buyer_reference or purchase_order (BT-10 or BT-13)',
    'at most one note (no legal_notes) unless seller and buyer are German',
    'seller and buyer in Germany: as for xrechnung (DE-R-*); seller in the Netherlands: street, city, postal code, legal_registration 0106/0190, payment.iban (NL-R-*)',
    'sellers in Denmark, Greece, Iceland, Italy, Norway and Sweden are refused (their national Peppol rules are not checked here)',
    'no JPY line whose quantity × unit price has decimals (R120)',
  ],
  checks: { rules: PEPPOL_RULES },
  reading: { recognises: (document) => document.customization.trim() === SPECIFICATION },
  docs: {
    whatYouGet: "Peppol BIS Billing 3.0 (Belgium's B2B mandate, the Nordics, the Netherlands, …)",
    formats: 'UBL Invoice and CreditNote',
    businessProcess: '`urn:fdc:peppol.eu:2017:poacc:billing:01:1.0` unless given',
  },
  example: PEPPOL_EXAMPLE,
});
