import type { InboundInvoice, InDataPair, InDataTable } from '../../invoice/inboundInvoice.js';
import { formatAmount } from './amountText.js';
import type { InboundText } from './inboundText.js';
import type { DataBlockView, DataCell, DataTableView } from '../dataBlockView.js';

const NUMERIC_TYPES = new Set(['int', 'dec']);
const ONE_LINE_TYPES = new Set(['date', 'time', 'int', 'dec']);
const NUMBER = /^\s*-?\d+(?:\.\d+)?\s*$/;

/**
 * A value of a typed column in the page's formats: a date column's ISO dates as dates, a number
 * column's numbers grouped with the decimals written (never rounded); anything else as sent.
 */
function cell(text: string, type: string | undefined, fmt: InboundText): DataCell {
  const kind = { numeric: NUMERIC_TYPES.has(type ?? ''), nowrap: ONE_LINE_TYPES.has(type ?? '') };
  if (type === 'date') return { text: fmt.date(text), lang: fmt.userLang(text), ...kind };
  if (kind.numeric && NUMBER.test(text))
    return { text: formatAmount(text.trim(), fmt.locale.tag, 0), lang: '', ...kind };
  return { text, lang: fmt.userLang(text), ...kind };
}

const plain = (text: string, fmt: InboundText) => cell(text, undefined, fmt);
const pairCells = (pairs: InDataPair[], fmt: InboundText) =>
  pairs.map(({ key, value }) => [plain(key, fmt), plain(value, fmt)]);

function tableView(table: InDataTable, fmt: InboundText): DataTableView {
  const width = Math.max(table.columns.length, ...table.rows.map((row) => row.length), table.sum?.length ?? 0);
  const typeAt = (index: number) => table.columns[index]?.type;
  const fill = (values: string[]) =>
    Array.from({ length: width }, (_, index) => cell(values[index] ?? '', typeAt(index), fmt));
  return {
    caption: table.caption === undefined ? null : plain(table.caption, fmt),
    pairs: pairCells(table.pairs, fmt),
    columns: Array.from({ length: width }, (_, index) => ({
      ...plain(table.columns[index]?.name ?? '', fmt),
      numeric: NUMERIC_TYPES.has(typeAt(index) ?? ''),
    })),
    rows: table.rows.map((row) =>
      row.length === 1 && width > 1 ? { cells: [plain(row[0]!, fmt)], span: width } : { cells: fill(row), span: null },
    ),
    sum: table.sum === undefined ? null : fill(table.sum),
  };
}

/**
 * The data a format attaches in its own structure (FA(3)'s Zalacznik), as the document lays it
 * out: each block's heading, key-value pairs and paragraphs, and its tables with their columns,
 * rows and sum row, numbers and dates in the page's formats.
 */
export function inboundDataBlocks(doc: InboundInvoice, fmt: InboundText): DataBlockView[] {
  return (doc.dataBlocks?.blocks ?? []).map((block) => ({
    heading: block.heading === undefined ? null : plain(block.heading, fmt),
    pairs: pairCells(block.pairs, fmt),
    paragraphs: block.paragraphs.map((paragraph) => plain(paragraph, fmt)),
    tables: block.tables.map((table) => tableView(table, fmt)),
  }));
}
