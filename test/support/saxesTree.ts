import { SaxesParser } from 'saxes';
import { InputRejected } from '../../src/errors.js';
import { INBOUND_XML_BOUNDS } from '../../src/einvoice/inbound/limits.js';
import { notWellFormed, refuseBeforeParsing, tooDeep, tooManyElements, type XNode } from '../../src/xml/xmlTree.js';

/**
 * The test oracle of src/xml/xmlTree.ts: the same tree, built by saxes (a strict,
 * well-kept, per-character XML parser), as the service read documents before it had its own
 * parser. test/unit/einvoice/xml-tree.test.ts requires both to agree on every corpus document and
 * to refuse the same malformed ones. The refusals before and around parsing are xmlTree.ts's own,
 * so that only the parsers differ.
 */
export function parseXmlTreeWithSaxes(text: string): XNode {
  refuseBeforeParsing(text, INBOUND_XML_BOUNDS);
  const parser = new SaxesParser({ xmlns: true, position: false });
  let root: XNode | undefined;
  let current: XNode | undefined;
  let depth = 0;
  let elements = 0;
  parser.on('opentag', (tag) => {
    depth++;
    elements++;
    if (depth > INBOUND_XML_BOUNDS.maxDepth) throw tooDeep(INBOUND_XML_BOUNDS);
    if (elements > INBOUND_XML_BOUNDS.maxElements) throw tooManyElements(INBOUND_XML_BOUNDS);
    const attrs: Record<string, string> = {};
    for (const key in tag.attributes) {
      const attribute = tag.attributes[key]!;
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      attrs[attribute.local] = attribute.value;
    }
    const node: XNode = { ns: tag.uri, name: tag.local, attrs, children: [], text: '', parent: current };
    if (current) current.children.push(node);
    else root = node;
    current = node;
  });
  // The element's own character data, its pieces joined as they come (text between its children
  // included), trimmed when it closes.
  const addText = (value: string) => {
    if (current) current.text += value;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (current) {
      current.text = current.text.trim();
      current = current.parent;
    }
    depth--;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof InputRejected) throw error;
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw notWellFormed(message);
  }
  if (!root) throw notWellFormed('no root element.');
  return root;
}
