/** Identifiers several formats write. */
export const EN16931_SPECIFICATION = 'urn:cen.eu:en16931:2017';
export const PEPPOL_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** CEN's rule set, which every EN 16931 profile checks first (src/einvoice/rules.ts). */
export const CEN_RULE_SET =
  'CEN EN 16931 1.3.16 (the service checks the rules a request can break; the rest hold by construction)';
