import { FORMATS } from '../formats/registry.js';
import type { FormatModule } from '../formats/format.js';
import type { EInvoiceProfile } from '../profiles.js';
import type { InboundInvoice } from './model.js';

/**
 * The format module of the national profile an inbound document declares, whose rules inspect then
 * checks beside EN 16931's (the same checks the e-invoice routes apply before issuing), with its
 * hooks for received documents: the first format of the registry (src/einvoice/formats/registry.ts)
 * that recognises it, e.g. by its specification identifier (BT-24). Anything else is EN 16931 only.
 */
export function nationalFormatOf(source: InboundInvoice): NationalFormat | undefined {
  return FORMATS.find((format) => 'recognise' in format && format.recognise(source));
}

type NationalFormat = Pick<
  FormatModule<EInvoiceProfile>,
  'id' | 'inboundFields' | 'inboundIssues' | 'documentKind' | 'reissuedAs'
>;
