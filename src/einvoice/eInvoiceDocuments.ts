import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { buildCii } from './cii.js';
import { toEInvoiceDocument } from './document.js';
import { DEFAULT_PROFILE, PROFILES, type EInvoiceProfile } from './profiles.js';
import { buildUbl } from './ubl.js';

export type XmlSyntax = 'cii' | 'ubl';

/**
 * The e-invoice XML of a prepared invoice under a profile, as UTF-8 bytes. Checking the profile's
 * rules is the caller's part (checkEInvoiceRules in prepareEInvoice.ts) and comes first.
 */
export function eInvoiceXml(
  prepared: PreparedInvoice,
  syntax: XmlSyntax,
  profile: EInvoiceProfile = DEFAULT_PROFILE,
): Buffer {
  const document = toEInvoiceDocument(prepared, PROFILES[profile]);
  return Buffer.from(syntax === 'cii' ? buildCii(document) : buildUbl(document), 'utf8');
}
