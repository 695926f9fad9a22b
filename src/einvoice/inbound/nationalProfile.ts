import { PROFILES, type EInvoiceProfile } from '../profiles.js';
import type { InboundInvoice } from './model.js';

/** BR-FR-08's invoicing framework codes (BT-23), B9/S9/M9 (self-billing) included: a French document may carry them. */
const FRENCH_FRAMEWORK = /^[BSM][1-9]$/;

/**
 * The national profile an inbound document declares, whose rules inspect then checks beside
 * EN 16931's (the same checks the e-invoice routes apply before issuing, src/einvoice/nationalRules.ts):
 * XRechnung 3.x (its extension too) and Peppol BIS Billing 3.0 by their specification identifier (BT-24); France, whose
 * documents carry the plain EN 16931 identifier, by a French seller naming a French invoicing
 * framework (BT-23 B1, S1, M1, …). Anything else is EN 16931 only.
 */
export function nationalProfileOf(source: InboundInvoice): Exclude<EInvoiceProfile, 'en16931'> | undefined {
  if (source.syntax === 'fa3') return 'ksef';
  const customization = source.customization.trim();
  if (/^urn:cen\.eu:en16931:2017#compliant#urn:xeinkauf\.de:kosit:xrechnung_3\.\d+(#|$)/.test(customization))
    return 'xrechnung';
  if (customization === PROFILES.peppol.specification) return 'peppol';
  if (source.seller.address?.country === 'FR' && FRENCH_FRAMEWORK.test(source.profile?.trim() ?? '')) return 'fr';
  return undefined;
}
