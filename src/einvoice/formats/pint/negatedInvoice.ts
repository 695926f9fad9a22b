import type { EInvoiceDocument } from '../../document.js';

/**
 * PINT JP has no credit note: its billing document is an invoice of type 380 only
 * (aligned-ibrp-cl-02-jp), and the official examples state a return or correction as such an
 * invoice whose quantities and amounts are negative, the prices positive ("Japan PINT Invoice UBL
 * Example7-Return.Quan.ItPr.xml" in ../shared/einvoice/pint/jp/examples), with the credited invoice
 * as its preceding invoice reference (Example6-CorrInv). This turns a credit note, whose amounts the
 * request states as positive, into that invoice: every quantity and amount negated, nothing recomputed,
 * so each is still exactly the one validate answers, with the opposite sign.
 */
export function asNegatedInvoice(document: EInvoiceDocument): EInvoiceDocument {
  const taxCurrency = document.extra?.taxCurrency;
  const { totals } = document;
  return {
    ...document,
    creditNote: false,
    typeCode: '380',
    allowances: document.allowances.map((allowance) => ({ ...allowance, amount: negate(allowance.amount) })),
    breakdown: document.breakdown.map((group) => ({ ...group, basis: negate(group.basis), tax: negate(group.tax) })),
    totals: {
      lineTotal: negate(totals.lineTotal),
      allowanceTotal: negateOptional(totals.allowanceTotal),
      taxBasis: negate(totals.taxBasis),
      taxTotal: negate(totals.taxTotal),
      grandTotal: negate(totals.grandTotal),
      prepaid: negateOptional(totals.prepaid),
      rounding: negateOptional(totals.rounding),
      duePayable: negate(totals.duePayable),
    },
    lines: document.lines.map((line) => ({
      ...line,
      quantity: negate(line.quantity),
      net: negate(line.net),
      ...(line.extra
        ? {
            extra: {
              ...line.extra,
              tax: negateOptional(line.extra.tax),
              amountWithTax: negateOptional(line.extra.amountWithTax),
            },
          }
        : {}),
    })),
    ...(document.extra
      ? {
          extra: {
            ...document.extra,
            ...(taxCurrency
              ? {
                  taxCurrency: {
                    ...taxCurrency,
                    taxTotal: negate(taxCurrency.taxTotal),
                    references: taxCurrency.references.map((reference) => ({
                      ...reference,
                      amount: negate(reference.amount),
                    })),
                  },
                }
              : {}),
          },
        }
      : {}),
  };
}

/** The decimal text with the opposite sign; zero stays unsigned (no "-0.00"). */
function negate(value: string): string {
  if (value.startsWith('-')) return value.slice(1);
  return /^[0.]*$/.test(value) ? value : `-${value}`;
}

function negateOptional(value: string | undefined): string | undefined {
  return value === undefined ? undefined : negate(value);
}
