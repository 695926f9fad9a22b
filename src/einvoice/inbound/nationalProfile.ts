import { FORMATS } from '../formats/registry.js';
import type { FormatModule } from '../formats/format.js';
import type { EInvoiceProfile } from '../profiles.js';
import { compareTotals, type TotalsComparison } from './inboundTotals.js';
import type { InboundInvoice } from './model.js';

/**
 * The format module of the profile an inbound document declares, whose rules inspect then checks
 * beside EN 16931's (the same checks the e-invoice routes apply before issuing), with its hooks for
 * received documents: the first format of the registry (src/einvoice/formats/registry.ts) whose
 * reading hooks recognise it, e.g. by its specification identifier (BT-24). Anything else is EN 16931 only.
 */
export function nationalFormatOf(source: InboundInvoice): NationalFormat | undefined {
  return FORMATS.find((format) => 'reading' in format && format.reading.recognises(source));
}

type NationalFormat = Pick<FormatModule<EInvoiceProfile>, 'id' | 'reading'>;

/** A received document's totals beside its lines', as its format compares them (else by EN 16931's rules). */
export function documentTotals(source: InboundInvoice): TotalsComparison {
  return nationalFormatOf(source)?.reading?.totals?.(source) ?? compareTotals(source);
}
