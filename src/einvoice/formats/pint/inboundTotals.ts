import { parseDecimal } from '../../inbound/decimalText.js';
import { compareTotals, type InboundTotalsRules } from '../../inbound/inboundTotals.js';
import type { InboundInvoice, TotalsComparison } from '../../inbound/model.js';
import { statesNoTax, type PintProfile } from './jurisdictions.js';

/**
 * How a received PINT document's totals are recomputed under its own jurisdiction's rules where
 * they differ from EN 16931's (src/einvoice/inbound/inboundTotals.ts compares under them). From the
 * compiled rules in ../shared/einvoice/pint:
 * - Japan's non-tax-registered invoice (BT-24 urn:peppol:pint:nontaxinvoice-1@jp-1) charges no
 *   consumption tax: every breakdown's tax is 0 whatever rate it names.
 * - The UAE: reverse charge (AE) and the margin scheme's "standard rate additional VAT" (N) state a
 *   rate but VAT 0 (aligned-ibrp-ae-09-ae, ibr-108-ae); a reverse-charge breakdown takes every AE
 *   line, allowance and charge whatever rate each states (aligned-ibrp-ae-08-ae as compiled:
 *   allowances are AE at 0 %, lines at 5 %); amounts may carry more decimals and are compared
 *   rounded to 2 (ibr-147-ae rounds both sides, aligned-ibrp-s-08 allows slack).
 * - Malaysia's tourism tax (TTX, tax scheme AAL) is a flat amount per night, not a rate: its
 *   breakdown's tax is the sum of the TTX lines' tax plus TTX charges minus TTX allowances
 *   (aligned-ibrp-ttx-09); no rule derives its taxable amount, so that is not compared.
 */
export const pintInboundTotals =
  (profile: PintProfile) =>
  (invoice: InboundInvoice): TotalsComparison =>
    compareTotals(invoice, pintTotalsRules(profile, invoice));

function pintTotalsRules(profile: PintProfile, invoice: InboundInvoice): InboundTotalsRules {
  if (statesNoTax(invoice.customization)) return { untaxed: () => true };
  if (profile === 'pint-ae')
    return {
      untaxed: (category) => category === 'AE' || category === 'N',
      anyRate: (category) => category === 'AE',
      roundStated: true,
    };
  if (profile === 'pint-my') return { otherTax: tourismTax };
  return {};
}

/** A line's position (0-based) from an other value's path: InvoiceLine/… is the only line, InvoiceLine[3]/… the third. */
const LINE_PATH = /^(?:Invoice|CreditNote)Line(?:\[(\d+)\])?\/(.*)$/;

function tourismTax(
  group: InboundInvoice['breakdown'][number],
  invoice: InboundInvoice,
): { basis: bigint | undefined; tax: bigint | undefined } | undefined {
  if (group.category !== 'TTX') return undefined;
  // The reader keeps each line's first tax category; a second one (TTX) and the line's tax total are other values.
  const ttxLines = new Set<number>();
  const lineTax = new Map<number, bigint>();
  for (const value of invoice.otherValues) {
    const match = LINE_PATH.exec(value.path);
    if (!match) continue;
    const at = match[1] === undefined ? 0 : Number(match[1]) - 1;
    if (/^Item\/ClassifiedTaxCategory(?:\[\d+\])?\/ID$/.test(match[2]!) && value.value === 'TTX') ttxLines.add(at);
    if (match[2] === 'TaxTotal/TaxAmount') lineTax.set(at, parseDecimal(value.value.split(' ')[0]) ?? 0n);
  }
  invoice.lines.forEach((line, at) => {
    if (line.category === 'TTX') ttxLines.add(at);
  });
  let tax = 0n;
  for (const at of ttxLines) tax += lineTax.get(at) ?? 0n;
  for (const item of invoice.allowances)
    if (item.category === 'TTX') tax += (item.charge ? 1n : -1n) * (parseDecimal(item.amount) ?? 0n);
  return { basis: undefined, tax };
}
