import type { Issue } from '../../errors.js';
import type { InboundInvoice, InParty } from './model.js';

/**
 * The national rules are this service's own checks of an invoice it issues (src/einvoice/formats/<profile>/rules.ts),
 * run on the JSON invoice an inbound document became. Two kinds of their findings are about this
 * service rather than the document, and are not reported as the document's:
 *
 * - a field the JSON invoice lacks only because the conversion left it out (toInvoiceJson.ts takes
 *   an electronic address or a legal registration only in a scheme and format this service issues,
 *   an account only when it is an IBAN): the document has the value, which the PDF shows;
 * - a limit of what this service issues: category O without a VAT rate (BR-DE-14 as applied to
 *   its own output) when the document states the rate, and the Peppol countries whose rules it
 *   does not check (PEPPOL-national), which become a note instead.
 */
export function documentNationalIssues(source: InboundInvoice, issues: Issue[]): { issues: Issue[]; notes: string[] } {
  const notes: string[] = [];
  const kept = issues.filter((issue) => {
    if (issue.code === 'PEPPOL-national') {
      notes.push(
        `Peppol: the seller is in ${source.seller.address?.country ?? 'a country'}, whose national Peppol rules this service does not check.`,
      );
      return false;
    }
    if (issue.code === 'BR-DE-14' && source.breakdown.every((group) => group.rate !== undefined)) return false;
    return !CONVERTED_FIELDS[issue.path]?.(source);
  });
  return { issues: kept, notes };
}

const partyHas =
  (party: keyof Pick<InboundInvoice, 'seller' | 'buyer'>, field: keyof InParty) => (source: InboundInvoice) =>
    source[party][field] !== undefined;

/** The JSON fields the conversion may leave out although the document has them, and how to tell. */
const CONVERTED_FIELDS: Record<string, (source: InboundInvoice) => boolean> = {
  'seller.electronic_address': partyHas('seller', 'endpoint'),
  'buyer.electronic_address': partyHas('buyer', 'endpoint'),
  'seller.legal_registration': partyHas('seller', 'legalId'),
  'buyer.legal_registration': partyHas('buyer', 'legalId'),
  'payment.iban': (source) => source.paymentMeans.length > 0,
};
