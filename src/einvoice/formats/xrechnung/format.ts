import { defineFormat } from '../format.js';
import { CEN_RULE_SET, PEPPOL_BILLING_PROCESS } from '../identifiers.js';
import { XRECHNUNG_EXAMPLE } from './example.js';
import { XRECHNUNG_RULES } from './rules.js';

/** XRechnung 3.x (its extension too) as KoSIT names it in BT-24. */
const XRECHNUNG_3 = /^urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.\d+(#|$)/;

/** XRechnung 3.0: the German public sector's CIUS of EN 16931 (and German B2B). */
export const xrechnung = defineFormat({
  id: 'xrechnung',
  title: 'XRechnung 3.0',
  blurb: 'XRechnung 3.0, CII, UBL or Factur-X',
  writes: ['cii', 'ubl', 'factur-x'],
  specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  defaultBusinessProcess: PEPPOL_BILLING_PROCESS,
  // ZUGFeRD 2.x profile XRECHNUNG: its own file name and conformance level.
  hybrid: { fileName: 'xrechnung.xml', conformanceLevel: 'XRECHNUNG' },
  ruleSets: [
    CEN_RULE_SET,
    'KoSIT XRechnung 3.0.2 (xrechnung-schematron 2.5.0: BR-DE-*, with the Peppol rules KoSIT merges: PEPPOL-EN16931-R001, R010, R020)',
  ],
  requiredFields: [
    'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; e.g. scheme 0204 Leitweg-ID for a public buyer, EM e-mail)',
    'seller.contact_name, seller.phone, seller.email (BG-6: BT-41, BT-42, BT-43)',
    'seller.city, seller.postal_code, buyer.city, buyer.postal_code (and ship_to.city, ship_to.postal_code when ship_to is given)',
    'buyer_reference (BT-10; the Leitweg-ID for German public buyers)',
    'payment.iban (BG-16 payment instructions, credit notes too)',
    'no category O lines (BR-DE-14 needs a VAT rate)',
  ],
  checks: { rules: XRECHNUNG_RULES },
  reading: { recognises: (document) => XRECHNUNG_3.test(document.customization.trim()) },
  docs: {
    whatYouGet: 'XRechnung 3.0 (German public sector; German B2B)',
    formats: 'CII, UBL, hybrid PDF (ZUGFeRD profile XRECHNUNG, embedded as `xrechnung.xml`)',
    businessProcess: '`urn:fdc:peppol.eu:2017:poacc:billing:01:1.0` unless given',
  },
  example: XRECHNUNG_EXAMPLE,
});
