import type { InDataBlock, InDataPair, InDataTable } from '../../../invoice/inboundInvoice.js';
import { kid, kids, type XNode } from '../../../xml/xmlTree.js';
import { FA3_NAMESPACE } from './writeFa3.js';

/**
 * FA(3)'s Zalacznik (the attachment of data blocks a utility or a long invoice carries: key-value
 * pairs, paragraphs and tables of typed columns, schemat_FA(3) v1-0E) read as the page prints it.
 * The children each element may have, from the XSD; an empty list is an element of text. A
 * Zalacznik with anything else in it is not read as blocks, so its values stay under "Further
 * details" rather than being dropped.
 */
const SHAPE: Record<string, readonly string[]> = {
  Zalacznik: ['BlokDanych'],
  BlokDanych: ['ZNaglowek', 'MetaDane', 'Tekst', 'Tabela'],
  MetaDane: ['ZKlucz', 'ZWartosc'],
  Tekst: ['Akapit'],
  Tabela: ['TMetaDane', 'Opis', 'TNaglowek', 'Wiersz', 'Suma'],
  TMetaDane: ['TKlucz', 'TWartosc'],
  TNaglowek: ['Kol'],
  Kol: ['NKom'],
  Wiersz: ['WKom'],
  Suma: ['SKom'],
};

function hasShape(node: XNode): boolean {
  const allowed = SHAPE[node.name] ?? [];
  return node.children.every((child) => child.ns === FA3_NAMESPACE && allowed.includes(child.name) && hasShape(child));
}

const textOf = (node: XNode | undefined) => (node === undefined || node.text === '' ? undefined : node.text);
const texts = (node: XNode | undefined, name: string) => kids(node, name).map((child) => child.text);

function pairs(node: XNode, name: string, key: string, value: string): InDataPair[] {
  return kids(node, name).map((pair) => ({ key: kid(pair, key)?.text ?? '', value: kid(pair, value)?.text ?? '' }));
}

function table(node: XNode): InDataTable {
  const sum = kid(node, 'Suma');
  return {
    pairs: pairs(node, 'TMetaDane', 'TKlucz', 'TWartosc'),
    caption: textOf(kid(node, 'Opis')),
    columns: kids(kid(node, 'TNaglowek'), 'Kol').map((column) => ({
      name: kid(column, 'NKom')?.text ?? '',
      type: column.attrs.Typ,
    })),
    rows: kids(node, 'Wiersz').map((row) => texts(row, 'WKom')),
    sum: sum === undefined ? undefined : texts(sum, 'SKom'),
  };
}

/** The Zalacznik of a Faktura as data blocks, or undefined when it has none or is not shaped as the XSD says. */
export function readFa3Attachment(root: XNode): { element: string; blocks: InDataBlock[] } | undefined {
  const attachment = kid(root, 'Zalacznik');
  if (attachment === undefined || attachment.ns !== FA3_NAMESPACE || !hasShape(attachment)) return undefined;
  const blocks = kids(attachment, 'BlokDanych').map((block) => ({
    heading: textOf(kid(block, 'ZNaglowek')),
    pairs: pairs(block, 'MetaDane', 'ZKlucz', 'ZWartosc'),
    paragraphs: texts(kid(block, 'Tekst'), 'Akapit'),
    tables: kids(block, 'Tabela').map(table),
  }));
  return blocks.length > 0 ? { element: 'Zalacznik', blocks } : undefined;
}
