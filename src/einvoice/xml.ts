/**
 * A small XML writer for the e-invoice documents: elements, attributes, text, nothing else (no
 * comments, CDATA or processing instructions besides the declaration). Output is deterministic
 * (attributes in the order given, two-space indent), and every text and attribute value is escaped
 * here, so user text can never open or close markup.
 */
export interface XmlElement {
  name: string;
  attributes: readonly (readonly [string, string])[];
  children: readonly XmlElement[];
  text: string | undefined;
}

/** A child slot: absent values (undefined, false) are dropped, so optional fields read naturally. */
export type XmlChild = XmlElement | undefined | false | readonly XmlChild[];

/** An element with child elements; empty ones are written as <name/>. */
export function el(
  name: string,
  attributes: Record<string, string | undefined> | null,
  ...children: XmlChild[]
): XmlElement {
  return { name, attributes: attributeList(attributes), children: flatten(children), text: undefined };
}

/** An element holding text; `undefined` text drops the element (an optional field left out). */
export function leaf(
  name: string,
  text: string | undefined,
  attributes: Record<string, string | undefined> | null = null,
): XmlElement | undefined {
  if (text === undefined) return undefined;
  return { name, attributes: attributeList(attributes), children: [], text };
}

export function serializeXml(root: XmlElement, namespaces: Record<string, string>): string {
  const rootWithNs: XmlElement = {
    ...root,
    attributes: [
      ...Object.entries(namespaces).map(([prefix, uri]) => [prefix ? `xmlns:${prefix}` : 'xmlns', uri] as const),
      ...root.attributes,
    ],
  };
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(rootWithNs, 0, out);
  return out.join('');
}

/** Indentation per depth, built once: documents are a few levels deep but thousands of lines long. */
const INDENTS: string[] = [];
const indentOf = (depth: number) => (INDENTS[depth] ??= '  '.repeat(depth));

function write(node: XmlElement, depth: number, out: string[]): void {
  const indent = indentOf(depth);
  let attributes = '';
  for (const [key, value] of node.attributes) attributes += ` ${key}="${escapeAttribute(value)}"`;
  if (node.text !== undefined) {
    out.push(`${indent}<${node.name}${attributes}>${escapeText(node.text)}</${node.name}>\n`);
  } else if (node.children.length === 0) {
    out.push(`${indent}<${node.name}${attributes}/>\n`);
  } else {
    out.push(`${indent}<${node.name}${attributes}>\n`);
    for (const child of node.children) write(child, depth + 1, out);
    out.push(`${indent}</${node.name}>\n`);
  }
}

function attributeList(attributes: Record<string, string | undefined> | null): (readonly [string, string])[] {
  return Object.entries(attributes ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
}

function flatten(children: readonly XmlChild[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const child of children) {
    if (!child) continue;
    if (Array.isArray(child)) out.push(...flatten(child));
    else out.push(child as XmlElement);
  }
  return out;
}

/**
 * XML 1.0 cannot carry U+FFFE, U+FFFF or unpaired surrogates (JSON can): they become U+FFFD. The
 * request schema already refuses control characters other than tab and newline.
 */
const LONE_SURROGATE_OR_NONCHARACTER =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g;

function xmlChars(value: string): string {
  return value.replace(LONE_SURROGATE_OR_NONCHARACTER, '\uFFFD');
}

/** Anything escapeText changes; most values (amounts, codes, dates) hold none and are returned as they are. */
const NEEDS_ESCAPE = /[&<>\uD800-\uDFFF\uFFFE\uFFFF]/;

export function escapeText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return xmlChars(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values also escape quotes and whitespace characters that parsers would normalise. */
const ATTRIBUTE_NEEDS_ESCAPE = /[&<>"\t\n\r\uD800-\uDFFF\uFFFE\uFFFF]/;

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_NEEDS_ESCAPE.test(value)) return value;
  return escapeText(value)
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
