import { rejected } from '../errors.js';
import { firstNonChar, isName, isSpace, NotWellFormed, qualifiedNameChecker, replaceReferences } from './xmlSyntax.js';

/**
 * Untrusted XML read into a small tree of namespaced elements, by a strict, non-validating XML 1.0
 * + Namespaces parser of our own. It never fetches or expands anything: a DOCTYPE (so any entity
 * declaration) is refused before parsing starts, and the only references replaced are the five
 * predefined entities and character references (xmlSyntax.ts). Depth and element count are
 * bounded. Everything else that makes a document not well-formed is refused too: characters XML
 * does not allow, bad names, unclosed or mismatched tags, duplicate attributes, unbound prefixes,
 * text or a second element outside the root, ']]>' in text, '--' in a comment.
 *
 * Why not a library: saxes, which read these documents before, spent 2.3 of the 4.4 ms a 200-line
 * CII of 245 KB took to read (profiled), most of it per character; this parser finds markup with
 * indexOf, and the whole read of that CII takes 3.0 ms (readForRender in a warm thread; npm run
 * bench:inbound reports inspect's read). saxes stays as the test oracle:
 * test/unit/einvoice/xml-tree.test.ts gives both every corpus document and a set of malformed
 * ones and requires the same tree or the same refusal.
 */
export interface XNode {
  /** Namespace URI ('' when none). */
  ns: string;
  /** Local name. */
  name: string;
  /** Attributes by local name (e-invoice attributes are unqualified: currencyID, unitCode, schemeID…). */
  attrs: Record<string, string>;
  children: XNode[];
  /** Concatenated character data directly in this element (CDATA included), trimmed. */
  text: string;
  parent: XNode | undefined;
}

/**
 * The bounds a caller reads within. A document over `maxChars` or `maxElements` is refused with
 * the caller's own error (`tooLarge`, e.g. einvoice_too_large), since the size that counts as too
 * large is the caller's to name; the other refusals are XML's own (xml_*).
 */
export interface XmlBounds {
  maxChars: number;
  maxDepth: number;
  maxElements: number;
  tooLarge(message: string): Error;
}

const refuse = (code: string, message: string) => rejected(code, message, [{ path: '', code, message }]);

// A DOCTYPE (and so any entity declaration) can only appear before the root element; ENTITY is
// also looked for anywhere, so a doctype hidden by an encoding trick still meets a refusal.
const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;

/**
 * The refusals that come before any parsing (too long, a DOCTYPE or entity declaration) and the
 * bounds checked while parsing: exported so that the test oracle (test/support/saxesTree.ts)
 * refuses exactly alike and differs only in the parser.
 */
export function refuseBeforeParsing(text: string, bounds: XmlBounds): void {
  if (text.length > bounds.maxChars) throw bounds.tooLarge(`The XML is longer than ${bounds.maxChars} characters.`);
  if (DOCTYPE.test(text)) {
    throw refuse(
      'xml_doctype_refused',
      'The XML has a DOCTYPE or entity declaration; e-invoices never need one, so it is refused unread (no DTD or entity is ever expanded).',
    );
  }
}

export const tooDeep = (bounds: XmlBounds) =>
  refuse('xml_too_deep', `The XML nests elements deeper than ${bounds.maxDepth} levels.`);
export const tooManyElements = (bounds: XmlBounds) =>
  bounds.tooLarge(`The XML has more than ${bounds.maxElements} elements.`);
export const notWellFormed = (reason: string) => refuse('xml_malformed', `The body is not well-formed XML: ${reason}`);

export function parseXmlTree(text: string, bounds: XmlBounds): XNode {
  refuseBeforeParsing(text, bounds);
  // A BOM the decoder left, and line ends normalised to LF as XML requires (§2.11).
  const source = text.replace(/^\uFEFF/, '');
  const normalised = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  try {
    return new TreeParser(normalised, bounds).parse();
  } catch (error) {
    if (!(error instanceof NotWellFormed)) throw error;
    const line = normalised.slice(0, error.offset).split('\n').length;
    throw notWellFormed(`line ${line}: ${error.message}.`);
  }
}

/** Children by local name (any namespace: CII and UBL each use theirs consistently). */
export function kids(node: XNode | undefined, name: string): XNode[] {
  return node ? node.children.filter((child) => child.name === name) : [];
}

export function kid(node: XNode | undefined, name: string): XNode | undefined {
  return node?.children.find((child) => child.name === name);
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
const DECLARATION =
  /^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.[0-9]+\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*\?>/;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;

/** An element being read: its node, its name as written (its end tag must repeat it), the prefixes it declared. */
interface Open {
  node: XNode;
  qname: string;
  declared: string[] | undefined;
}

class TreeParser {
  private readonly open: Open[] = [];
  /**
   * Namespace bindings in scope: for each prefix ('' for the default namespace) its URIs,
   * innermost last. A map, so that resolving a name costs the same however many prefixes a
   * hostile document declares.
   */
  private readonly scope = new Map<string, string[]>();
  private readonly validName = qualifiedNameChecker();
  private root: XNode | undefined;
  /** The innermost open element. */
  private current: XNode | undefined;
  private elements = 0;

  constructor(
    private readonly text: string,
    private readonly bounds: XmlBounds,
  ) {}

  parse(): XNode {
    const { text } = this;
    const invalid = firstNonChar(text);
    if (invalid) {
      const code = invalid.code.toString(16).toUpperCase().padStart(4, '0');
      throw new NotWellFormed(`character U+${code} is not allowed in XML`, invalid.index);
    }
    let at = this.declaration();
    for (;;) {
      const lt = text.indexOf('<', at);
      const end = lt === -1 ? text.length : lt;
      if (end > at) this.characterData(at, end);
      if (lt === -1) break;
      const next = text.charCodeAt(lt + 1);
      at =
        next === SLASH
          ? this.endTag(lt)
          : next === BANG
            ? this.markup(lt)
            : next === QUESTION
              ? this.processingInstruction(lt)
              : this.startTag(lt);
    }
    const unclosed = this.open.at(-1);
    if (unclosed) throw new NotWellFormed(`<${unclosed.qname}> is never closed`, text.length);
    if (!this.root) throw new NotWellFormed('no root element', text.length);
    return this.root;
  }

  /** The XML declaration, only at the very start; where the document proper begins. */
  private declaration(): number {
    const { text } = this;
    if (!text.startsWith('<?xml') || !isSpace(text.charCodeAt(5))) return 0;
    const match = DECLARATION.exec(text);
    if (!match) throw new NotWellFormed('the XML declaration is malformed', 0);
    return match[0].length;
  }

  private characterData(from: number, to: number): void {
    const { text, current } = this;
    if (!current) {
      if (!isSpaceOnly(text, from, to))
        throw new NotWellFormed(`text ${this.root ? 'after' : 'before'} the root element`, from);
      return;
    }
    // Indentation before an element's first content is trimmed away anyway: skipped unread.
    if (current.text === '' && isSpaceOnly(text, from, to)) return;
    const raw = text.slice(from, to);
    if (raw.includes(']]>')) throw new NotWellFormed("']]>' in text", from + raw.indexOf(']]>'));
    current.text += raw.includes('&') ? replaceReferences(raw, from) : raw;
  }

  private startTag(lt: number): number {
    const { text } = this;
    if (this.root && this.open.length === 0) throw new NotWellFormed('a second element after the root element', lt);
    let at = lt + 1;
    while (at < text.length && !isSpace(text.charCodeAt(at)) && !isTagEnd(text.charCodeAt(at))) at++;
    const qname = this.name(text.slice(lt + 1, at), lt);
    const raw: [string, string][] = [];
    const names: AttributeNames = { seen: undefined };
    let selfClosing = false;
    for (;;) {
      const before = at;
      while (isSpace(text.charCodeAt(at))) at++;
      const code = text.charCodeAt(at);
      if (code === GT) {
        at++;
        break;
      }
      if (code === SLASH && text.charCodeAt(at + 1) === GT) {
        at += 2;
        selfClosing = true;
        break;
      }
      if (at >= text.length) throw new NotWellFormed(`<${qname}> is not closed by '>'`, lt);
      if (at === before) throw new NotWellFormed(`the attributes of <${qname}> need whitespace between them`, at);
      at = this.attribute(at, qname, raw, names);
    }
    this.openElement(qname, raw, lt);
    if (selfClosing) this.closeElement();
    return at;
  }

  /** One attribute from `at`, appended to `into` as [name, value]; where the next one may start. */
  private attribute(at: number, element: string, into: [string, string][], names: AttributeNames): number {
    const { text } = this;
    let end = at;
    while (
      end < text.length &&
      !isSpace(text.charCodeAt(end)) &&
      text.charCodeAt(end) !== EQUALS &&
      !isTagEnd(text.charCodeAt(end))
    )
      end++;
    const name = this.name(text.slice(at, end), at);
    while (isSpace(text.charCodeAt(end))) end++;
    if (text.charCodeAt(end) !== EQUALS) throw new NotWellFormed(`attribute ${name} of <${element}> has no value`, end);
    end++;
    while (isSpace(text.charCodeAt(end))) end++;
    const quote = text[end];
    if (quote !== '"' && quote !== "'") throw new NotWellFormed(`the value of ${name} is not quoted`, end);
    const close = text.indexOf(quote, end + 1);
    if (close === -1) throw new NotWellFormed(`the value of ${name} is never closed`, end);
    const value = text.slice(end + 1, close);
    if (value.includes('<')) throw new NotWellFormed(`'<' in the value of ${name}`, end);
    if (hasAttribute(into, names, name)) throw new NotWellFormed(`<${element}> has ${name} twice`, at);
    // Attribute-value normalisation (§3.3.3): each literal whitespace character becomes a space;
    // characters written as references stay as they are.
    const spaced = value.includes('\t') || value.includes('\n') ? value.replace(/[\t\n]/g, ' ') : value;
    into.push([name, spaced.includes('&') ? replaceReferences(spaced, end + 1) : spaced]);
    return close + 1;
  }

  private openElement(qname: string, raw: [string, string][], offset: number): void {
    if (this.open.length + 1 > this.bounds.maxDepth) throw tooDeep(this.bounds);
    if (++this.elements > this.bounds.maxElements) throw tooManyElements(this.bounds);
    let declared: string[] | undefined;
    for (const [name, value] of raw) {
      const prefix = name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : undefined;
      if (prefix === undefined) continue;
      this.bind(prefix, value, offset);
      (declared ??= []).push(prefix);
    }
    const attrs: Record<string, string> = raw.length === 0 ? NO_ATTRIBUTES : {};
    // Two prefixed attributes may name the same one through prefixes bound to one URI (an
    // unprefixed one is in no namespace, and a prefix can't be bound to none): only those are compared.
    let prefixed: Set<string> | undefined;
    for (const [name, value] of raw) {
      if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
      const colon = name.indexOf(':');
      const local = colon === -1 ? name : name.slice(colon + 1);
      if (colon !== -1) {
        const expanded = `${this.resolve(name.slice(0, colon), name, offset)} ${local}`;
        if (prefixed?.has(expanded))
          throw new NotWellFormed(`<${qname}> has the attribute ${name} twice under another prefix`, offset);
        (prefixed ??= new Set()).add(expanded);
      }
      attrs[local] = value;
    }
    const colon = qname.indexOf(':');
    const node: XNode = {
      ns: this.resolve(colon === -1 ? '' : qname.slice(0, colon), qname, offset),
      name: colon === -1 ? qname : qname.slice(colon + 1),
      attrs,
      children: [],
      text: '',
      parent: this.current,
    };
    if (node.parent) node.parent.children.push(node);
    else this.root = node;
    this.open.push({ node, qname, declared });
    this.current = node;
  }

  private closeElement(): void {
    const closed = this.open.pop()!;
    const { node } = closed;
    if (node.text !== '') node.text = node.text.trim();
    for (const prefix of closed.declared ?? []) this.scope.get(prefix)!.pop();
    this.current = node.parent;
  }

  private endTag(lt: number): number {
    const { text } = this;
    const open = this.open.at(-1);
    // The usual case, </name>, is compared in place.
    if (open && text.startsWith(open.qname, lt + 2) && text.charCodeAt(lt + 2 + open.qname.length) === GT) {
      this.closeElement();
      return lt + 3 + open.qname.length;
    }
    const gt = text.indexOf('>', lt + 2);
    if (gt === -1) throw new NotWellFormed('an end tag is not closed by >', lt);
    let end = gt;
    while (end > lt + 2 && isSpace(text.charCodeAt(end - 1))) end--;
    const qname = text.slice(lt + 2, end);
    if (!open) throw new NotWellFormed(`</${qname}> closes no element`, lt);
    if (qname !== open.qname) throw new NotWellFormed(`</${qname}> does not close <${open.qname}>`, lt);
    this.closeElement();
    return gt + 1;
  }

  /** A comment or a CDATA section (inside the root only); a DOCTYPE never gets here (refuseBeforeParsing). */
  private markup(lt: number): number {
    const { text } = this;
    if (text.startsWith('<!--', lt)) {
      const dashes = text.indexOf('--', lt + 4);
      if (dashes === -1) throw new NotWellFormed('a comment is never closed', lt);
      if (text.charCodeAt(dashes + 2) !== GT) throw new NotWellFormed("'--' inside a comment", dashes);
      return dashes + 3;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const current = this.current;
      if (!current) throw new NotWellFormed('a CDATA section outside the root element', lt);
      const close = text.indexOf(']]>', lt + 9);
      if (close === -1) throw new NotWellFormed('a CDATA section is never closed', lt);
      current.text += text.slice(lt + 9, close);
      return close + 3;
    }
    throw new NotWellFormed("'<!' that begins no comment or CDATA section", lt);
  }

  private processingInstruction(lt: number): number {
    const { text } = this;
    const close = text.indexOf('?>', lt + 2);
    if (close === -1) throw new NotWellFormed('a processing instruction is never closed', lt);
    let end = lt + 2;
    while (end < close && !isSpace(text.charCodeAt(end))) end++;
    const target = text.slice(lt + 2, end);
    if (!isName(target) || target.includes(':'))
      throw new NotWellFormed(`a processing instruction has no valid target`, lt);
    if (target.toLowerCase() === 'xml')
      throw new NotWellFormed('an XML declaration is only allowed at the very start', lt);
    return close + 2;
  }

  private name(name: string, offset: number): string {
    if (!this.validName(name)) throw new NotWellFormed(`'${name.slice(0, 40)}' is not a valid name`, offset);
    return name;
  }

  private bind(prefix: string, uri: string, offset: number): void {
    if (prefix === 'xmlns') throw new NotWellFormed('the prefix xmlns cannot be declared', offset);
    if (prefix === 'xml' ? uri !== XML_NAMESPACE : uri === XML_NAMESPACE)
      throw new NotWellFormed(`the xml namespace is bound to the prefix xml only`, offset);
    if (uri === XMLNS_NAMESPACE) throw new NotWellFormed('the xmlns namespace cannot be bound', offset);
    if (prefix !== '' && uri === '') throw new NotWellFormed(`xmlns:${prefix} is empty`, offset);
    const uris = this.scope.get(prefix);
    if (uris) uris.push(uri);
    else this.scope.set(prefix, [uri]);
  }

  private resolve(prefix: string, qname: string, offset: number): string {
    const uri = this.scope.get(prefix)?.at(-1);
    if (uri !== undefined) return uri;
    if (prefix === '') return '';
    if (prefix === 'xml') return XML_NAMESPACE;
    throw new NotWellFormed(`the prefix of ${qname} is not declared`, offset);
  }
}

const isTagEnd = (code: number) => code === GT || code === SLASH;

/** The attribute names of one start tag, as a set once there are enough of them to need one. */
interface AttributeNames {
  seen: Set<string> | undefined;
}

// A few attributes are compared in a row; a hostile tag with thousands gets a set, so that the
// duplicate check stays linear.
function hasAttribute(read: [string, string][], names: AttributeNames, name: string): boolean {
  if (read.length < 8) return read.some(([seen]) => seen === name);
  names.seen ??= new Set(read.map(([seen]) => seen));
  if (names.seen.has(name)) return true;
  names.seen.add(name);
  return false;
}

/** Shared by every element without attributes (the tree is only read). */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

function isSpaceOnly(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (!isSpace(text.charCodeAt(at))) return false;
  return true;
}
