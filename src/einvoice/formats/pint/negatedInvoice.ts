import type { EInvoiceDocument } from '../../document.js';
import type { InboundInvoice } from '../../inbound/model.js';

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
    totals: negateEach(totals),
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

/**
 * The other way, on a received PINT JP document: an invoice (380) whose lines are all returns (no
 * positive line amount) and whose total is negative, as the credit note it stands for, with every
 * amount's sign turned, so that the JSON invoice, which has no negative amounts, holds it as a
 * credit_note, which pint-jp writes back as this very invoice. Undefined for any other document.
 */
export function asCreditNote(document: InboundInvoice): InboundInvoice | undefined {
  const { totals } = document;
  const negative = (value: string | undefined) => value !== undefined && value.trim().startsWith('-');
  if (
    document.typeCode.trim() !== '380' ||
    !negative(totals.grandTotal) ||
    document.lines.length === 0 ||
    document.lines.some((line) => !negative(line.net) && !/^[-0.]*$/.test(line.net.trim()))
  )
    return undefined;
  // BT-111 is read as "amount currency".
  const { taxTotalAccounting, ...amounts } = totals;
  const [accounting, currency] = (taxTotalAccounting ?? '').split(' ');
  return {
    ...document,
    typeCode: '381',
    allowances: document.allowances.map((item) => ({ ...item, amount: negate(item.amount) })),
    breakdown: document.breakdown.map((group) => ({ ...group, basis: negate(group.basis), tax: negate(group.tax) })),
    totals: {
      ...negateEach(amounts),
      taxTotalAccounting:
        accounting === undefined || accounting === ''
          ? taxTotalAccounting
          : [negate(accounting), currency].filter(Boolean).join(' '),
    },
    lines: document.lines.map((line) => ({
      ...line,
      quantity: negate(line.quantity),
      net: negate(line.net),
      allowances: line.allowances.map((item) => ({ ...item, amount: negate(item.amount) })),
    })),
  };
}

/** The decimal text with the opposite sign; zero stays unsigned (no "-0.00"). */
function negate(text: string): string {
  const value = text.trim();
  if (value.startsWith('-')) return value.slice(1);
  return /^[0.]*$/.test(value) ? value : `-${value}`;
}

function negateOptional(value: string | undefined): string | undefined {
  return value === undefined ? undefined : negate(value);
}

/** Every amount of a totals record with the opposite sign (an absent one stays absent). */
function negateEach<T extends Record<string, string | undefined>>(values: T): T {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, negateOptional(value)])) as T;
}
