import { SaxesParser } from 'saxes';
import { InputRejected, rejected } from '../../src/errors.js';
import { INBOUND_LIMITS } from '../../src/einvoice/inbound/limits.js';
import type { XNode } from '../../src/einvoice/inbound/xmlTree.js';

/**
 * The test oracle of src/einvoice/inbound/xmlTree.ts: the same tree, built by saxes (a strict,
 * well-kept, per-character XML parser), as the service read documents before it had its own
 * parser. test/unit/einvoice/xml-tree.test.ts requires both to agree on every corpus document and
 * to refuse the same malformed ones.
 */
const refuse = (code: string, message: string) => rejected(code, message, [{ path: '', code, message }]);

// A DOCTYPE (and so any entity declaration) can only appear before the root element; ENTITY is
// also looked for anywhere, so a doctype hidden by an encoding trick still meets a refusal.
const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;

export function parseXmlTreeWithSaxes(text: string): XNode {
  if (text.length > INBOUND_LIMITS.xmlChars) {
    throw refuse('einvoice_too_large', `The XML is longer than ${INBOUND_LIMITS.xmlChars} characters.`);
  }
  if (DOCTYPE.test(text)) {
    throw refuse(
      'xml_doctype_refused',
      'The XML has a DOCTYPE or entity declaration; e-invoices never need one, so it is refused unread (no DTD or entity is ever expanded).',
    );
  }
  const parser = new SaxesParser({ xmlns: true, position: false });
  let root: XNode | undefined;
  let current: XNode | undefined;
  let depth = 0;
  let elements = 0;
  parser.on('doctype', () => {
    throw refuse('xml_doctype_refused', 'The XML has a DOCTYPE; it is refused unread.');
  });
  parser.on('opentag', (tag) => {
    depth++;
    elements++;
    if (depth > INBOUND_LIMITS.xmlDepth)
      throw refuse('xml_too_deep', `The XML nests elements deeper than ${INBOUND_LIMITS.xmlDepth} levels.`);
    if (elements > INBOUND_LIMITS.xmlElements)
      throw refuse('einvoice_too_large', `The XML has more than ${INBOUND_LIMITS.xmlElements} elements.`);
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
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw refuse('xml_malformed', `The body is not well-formed XML: ${message}`);
  }
  if (!root) throw refuse('xml_malformed', 'The body is not well-formed XML: no root element.');
  return root;
}
