import { FORMATS } from '../formats/registry.js';
import type { EInvoiceProfile } from '../profiles.js';
import type { InboundInvoice } from './model.js';

/**
 * The national profile an inbound document declares, whose rules inspect then checks beside
 * EN 16931's (the same checks the e-invoice routes apply before issuing): the first format of the
 * registry (src/einvoice/formats/registry.ts) that recognises it, e.g. by its specification
 * identifier (BT-24). Anything else is EN 16931 only.
 */
export function nationalProfileOf(source: InboundInvoice): EInvoiceProfile | undefined {
  for (const format of FORMATS) {
    if ('recognise' in format && format.recognise(source)) return format.id;
  }
  return undefined;
}
