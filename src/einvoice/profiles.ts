import * as v from 'valibot';

/**
 * The e-invoice profiles: EN 16931 alone, and the national rule sets on top of it. A profile
 * decides the specification identifier (BT-24) and the default business process (BT-23) written
 * into the XML, the syntaxes it exists in, and the rules checked before payment (nationalRules.ts).
 */
export const EINVOICE_PROFILES = ['en16931', 'xrechnung', 'peppol', 'fr'] as const;
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
  hybrid: { fileName: string; conformanceLevel: string } | undefined;
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
  },
  xrechnung: {
    title: 'XRechnung 3.0',
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    defaultBusinessProcess: PEPPOL_BILLING_PROCESS,
    formats: ['cii', 'ubl', 'factur-x'],
    ruleSets: [CEN, 'KoSIT XRechnung 3.0.2 (xrechnung-schematron 2.5.0: BR-DE-*, with the Peppol rules KoSIT merges: PEPPOL-EN16931-R001, R010, R020)'],
    // ZUGFeRD 2.x profile XRECHNUNG: its own file name and conformance level.
    hybrid: { fileName: 'xrechnung.xml', conformanceLevel: 'XRECHNUNG' },
  },
  peppol: {
    title: 'Peppol BIS Billing 3.0',
    specification: 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
    defaultBusinessProcess: PEPPOL_BILLING_PROCESS,
    formats: ['ubl'],
    ruleSets: [CEN, 'OpenPEPPOL BIS Billing 3.0.21 (PEPPOL-EN16931-*, PEPPOL-COMMON-*, the German DE-R-* and Dutch NL-R-* sections)'],
    hybrid: undefined,
  },
  fr: {
    title: 'France (EN 16931 with BR-FR flux 2)',
    specification: EN16931_SPECIFICATION,
    defaultBusinessProcess: undefined,
    formats: ['cii', 'ubl', 'factur-x'],
    ruleSets: [CEN, 'FNFE-MPE BR-FR flux 2, EN16931 profile, France_RFE 1.4.0.03 (BR-FR-*)'],
    hybrid: { fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' },
  },
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
