import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import { detailTerm } from './detailTerms.js';
import type { InboundText } from './inboundText.js';

/**
 * What repeats what the page says already, or is no part of the invoice: the tax scheme of every
 * tax category (VAT, GST: the VAT table and the title say it), the UBL version, and an XML
 * signature's elements (the banner reports the signature).
 */
const REPEATS = [/(^|\/)TaxScheme\/ID$/, /^UBLVersionID$/, /(^|\/)Signature\//, /^Signature$/];

/** Whether the value at `path` (without indexes) only repeats the page, and is left out. */
export const isRepeat = (path: string) => REPEATS.some((pattern) => pattern.test(path));

/** The element a line's index sits on, in each syntax the reader takes. */
const LINE_INDEX =
  /(?:^|\/)(?:InvoiceLine|CreditNoteLine|IncludedSupplyChainTradeLineItem|FaWiersz|DettaglioLinee)\[(\d+)\]/;

interface FurtherDetail {
  label: string;
  value: string;
  lang: string;
}

/** The label of a value under "Further details" in the page's language: owner — what it is (BT). */
function furtherDetailLabel(path: string, bt: string | undefined, { labels }: InboundText): string {
  const { owner, word } = detailTerm(path.replace(/\[\d+\]/g, ''));
  const what = typeof word === 'string' ? labels[word] : word.literal;
  return `${owner ? `${labels[owner]} — ` : ''}${what}${bt ? ` (${bt})` : ''}`;
}

/**
 * "Further details": every value the document states that no section takes, so nothing it says is
 * hidden, under words in the page's language and never its element path; values under the same
 * label (a fact of every line, the parts of one address) share one row, a line's value led by its
 * line number. What only repeats the page is left out.
 */
export function furtherDetails(doc: InboundInvoice, fmt: InboundText): FurtherDetail[] {
  const rows = new Map<string, string[]>();
  // Values the page prints in their own tables (inboundDataBlocks.ts) are not repeated here.
  const tabled = doc.dataBlocks === undefined ? undefined : `${doc.dataBlocks.element}/`;
  for (const { path, bt, value } of doc.otherValues) {
    const plain = path.replace(/\[\d+\]/g, '');
    if (isRepeat(plain) || (tabled !== undefined && path.startsWith(tabled))) continue;
    const label = furtherDetailLabel(path, bt ?? undefined, fmt);
    const line = LINE_INDEX.exec(path)?.[1];
    const shown = line === undefined ? value : `${fmt.labels.inbound_ctx_line} ${line}: ${value}`;
    const values = rows.get(label) ?? [];
    if (!values.includes(shown)) values.push(shown);
    rows.set(label, values);
  }
  return [...rows].map(([label, values]) => {
    const value = values.join(' · ');
    return { label, value, lang: fmt.userLang(value) };
  });
}
