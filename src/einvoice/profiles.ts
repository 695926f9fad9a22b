import * as v from 'valibot';
import type { Issue } from '../errors.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { EInvoiceDocument } from './document.js';
import { HR_PROFILE } from './formats/hr/profile.js';
import { PINT_PROFILES } from './formats/pint/jurisdictions.js';
import { PINT_PROFILE_DEFINITIONS } from './formats/pint/profiles.js';

/**
 * The e-invoice profiles: EN 16931 alone, and the national rule sets on top of it. A profile
 * decides the specification identifier (BT-24) and the default business process (BT-23) written
 * into the XML, the syntaxes it exists in, and the rules checked before payment (nationalRules.ts).
 */
export const EINVOICE_PROFILES = ['en16931', 'xrechnung', 'peppol', 'fr', ...PINT_PROFILES, 'hr'] as const;
export type EInvoiceProfile = (typeof EINVOICE_PROFILES)[number];
export const DEFAULT_PROFILE: EInvoiceProfile = 'en16931';

export const EN16931_SPECIFICATION = 'urn:cen.eu:en16931:2017';
export const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

export type EInvoiceFormat = 'cii' | 'ubl' | 'factur-x';

export interface ProfileDefinition {
  title: string;
  /** BT-24. */
  specification: string;
  /** BT-23 when the request names none. */
  defaultBusinessProcess: string | undefined;
  formats: readonly EInvoiceFormat[];
  /** The official rule sets the national checks implement, with the versions they follow. */
  ruleSets: readonly string[];
  /** Factur-X / ZUGFeRD hybrid: embedded file name and XMP fx:ConformanceLevel. */
  hybrid: { fileName: string; conformanceLevel: 'EN 16931' | 'XRECHNUNG' } | undefined;
  /** The request fields the profile requires beyond EN 16931 (the rules in nationalRules.ts ask for them). */
  requiredFields: readonly string[];
  /** The profile's own codes and fields on top of the EN 16931 document (Peppol PINT, Croatia). */
  adapt?: (document: EInvoiceDocument, prepared: PreparedInvoice) => EInvoiceDocument;
  /** The EN 16931 rules as the profile applies them (PINT: on its own tax identifier); default checkEn16931. */
  baseRules?: (prepared: PreparedInvoice) => Issue[];
}

const CEN = 'CEN EN 16931 1.3.16 (the service checks the rules a request can break; the rest hold by construction)';

export const PROFILES: Readonly<Record<EInvoiceProfile, ProfileDefinition>> = {
  en16931: {
    title: 'EN 16931',
    specification: EN16931_SPECIFICATION,
    defaultBusinessProcess: undefined,
    formats: ['cii', 'ubl', 'factur-x'],
    ruleSets: [CEN],
    hybrid: { fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' },
    requiredFields: [],
  },
  xrechnung: {
    title: 'XRechnung 3.0',
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    defaultBusinessProcess: PEPPOL_BILLING_PROCESS,
    formats: ['cii', 'ubl', 'factur-x'],
    ruleSets: [
      CEN,
      'KoSIT XRechnung 3.0.2 (xrechnung-schematron 2.5.0: BR-DE-*, with the Peppol rules KoSIT merges: PEPPOL-EN16931-R001, R010, R020)',
    ],
    // ZUGFeRD 2.x profile XRECHNUNG: its own file name and conformance level.
    hybrid: { fileName: 'xrechnung.xml', conformanceLevel: 'XRECHNUNG' },
    requiredFields: [
      'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; e.g. scheme 0204 Leitweg-ID for a public buyer, EM e-mail)',
      'seller.contact_name, seller.phone, seller.email (BG-6: BT-41, BT-42, BT-43)',
      'seller.city, seller.postal_code, buyer.city, buyer.postal_code (and ship_to.city, ship_to.postal_code when ship_to is given)',
      'buyer_reference (BT-10; the Leitweg-ID for German public buyers)',
      'payment.iban (BG-16 payment instructions, credit notes too)',
      'no category O lines (BR-DE-14 needs a VAT rate)',
    ],
  },
  peppol: {
    title: 'Peppol BIS Billing 3.0',
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    defaultBusinessProcess: PEPPOL_BILLING_PROCESS,
    formats: ['ubl'],
    ruleSets: [
      CEN,
      'OpenPEPPOL BIS Billing 3.0.21 (PEPPOL-EN16931-*, PEPPOL-COMMON-*, the German DE-R-* and Dutch NL-R-* sections)',
    ],
    hybrid: undefined,
    requiredFields: [
      'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; a Peppol EAS scheme such as 0208 Belgian KBO, 0088 GLN, 9930 German VAT; not EM)',
      'buyer_reference or purchase_order (BT-10 or BT-13)',
      'at most one note (no legal_notes) unless seller and buyer are German',
      'seller and buyer in Germany: as for xrechnung (DE-R-*); seller in the Netherlands: street, city, postal code, legal_registration 0106/0190, payment.iban (NL-R-*)',
      'sellers in Denmark, Greece, Iceland, Italy, Norway and Sweden are refused (their national Peppol rules are not checked here)',
      'no JPY line whose quantity × unit price has decimals (R120)',
    ],
  },
  fr: {
    title: 'France (EN 16931 with BR-FR flux 2)',
    specification: EN16931_SPECIFICATION,
    defaultBusinessProcess: undefined,
    formats: ['cii', 'ubl', 'factur-x'],
    ruleSets: [CEN, 'FNFE-MPE BR-FR flux 2, EN16931 profile, France_RFE 1.4.0.03 (BR-FR-*)'],
    hybrid: { fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' },
    requiredFields: [
      'seller.legal_registration with scheme 0002 (the SIREN, BT-30)',
      'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; e.g. 0225, 0002 SIREN, 0009 SIRET)',
      'business_process: the invoicing framework B1 (goods), S1 (services), M1 (mixed), … (BT-23)',
      'legal_notes (PMT, PMD, AAB; {} writes the statutory wording)',
      'currency EUR; VAT rates 20, 10, 5.5, 2.1 (and the overseas rates 8.5, 1.75, 1.05, 0.9, 13, 7, 9.2, 9.6, 19.6, 20.6)',
      'invoice_number of at most 35 letters, digits and + - _ /; a credit note names preceding_invoice with its issue_date',
    ],
  },
  ...PINT_PROFILE_DEFINITIONS,
  hr: HR_PROFILE,
};

export const ProfileField = v.optional(
  v.pipe(
    v.picklist(EINVOICE_PROFILES, `must be one of ${EINVOICE_PROFILES.join(', ')}`),
    v.description(
      'E-invoice profile: en16931 (default; EN 16931 alone), xrechnung (XRechnung 3.0, CII, UBL or Factur-X), peppol (Peppol BIS Billing 3.0, UBL only), fr (France, EN 16931 with the BR-FR flux 2 rules; CII, UBL or Factur-X). Each profile writes its own specification and business-process identifiers and adds its own rules, checked before payment.',
    ),
  ),
  DEFAULT_PROFILE,
);

/** The profiles as /v1/schema lists them. */
export function describeProfiles() {
  return {
    field: 'profile (top-level, optional, on the e-invoice routes and their MCP tools; default en16931)',
    profiles: EINVOICE_PROFILES.map((name) => {
      const profile = PROFILES[name];
      return {
        profile: name,
        title: profile.title,
        specification: profile.specification,
        default_business_process: profile.defaultBusinessProcess ?? null,
        formats: profile.formats,
        hybrid: profile.hybrid
          ? { embedded_file: profile.hybrid.fileName, conformance_level: profile.hybrid.conformanceLevel }
          : null,
        rule_sets: profile.ruleSets,
        required_fields: profile.requiredFields,
      };
    }),
  };
}

/** The llms.txt paragraph on the profiles. */
export const E_INVOICE_PROFILES_NOTE =
  'E-invoices (POST /v1/e-invoice/cii.xml, ubl.xml, factur-x.pdf; free check at POST /v1/e-invoice/validate) take an optional top-level "profile": en16931 (default), xrechnung (XRechnung 3.0, CII/UBL/Factur-X with the ZUGFeRD XRECHNUNG profile), peppol (Peppol BIS Billing 3.0, UBL), fr (France, BR-FR flux 2; CII/UBL/Factur-X). The national fields: seller/buyer electronic_address { scheme, id } (BT-34/BT-49), legal_registration { scheme, id } (BT-30), business_process (BT-23), delivery_date (BT-72), invoicing_period (BG-14), legal_notes (France PMT/PMD/AAB). A national rule that fails is a 400 einvoice_rules_failed naming each rule id and field, never charged; GET /v1/schema lists the fields each profile requires.';
