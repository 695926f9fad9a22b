/*
 * The page's view of the data blocks a format attaches in its own structure (FA(3)'s Zalacznik):
 * types only, beside invoiceView.ts (which holds them on the page) and inbound/inboundDataBlocks.ts
 * (which builds them), so that neither imports the other.
 */

export interface DataCell {
  text: string;
  lang: string;
  /** In a column of numbers (FA(3) int, dec): aligned at the end, a "-" too. */
  numeric: boolean;
  /** In a column of dates or times: kept on one line. */
  nowrap: boolean;
}

interface DataRow {
  cells: DataCell[];
  /** A row of one value in a table of several columns (a group's title, FA(3) utilities write them) spans them all. */
  span: number | null;
}

export interface DataTableView {
  caption: DataCell | null;
  pairs: DataCell[][];
  columns: DataCell[];
  rows: DataRow[];
  sum: DataCell[] | null;
}

export interface DataBlockView {
  heading: DataCell | null;
  pairs: DataCell[][];
  paragraphs: DataCell[];
  tables: DataTableView[];
}
