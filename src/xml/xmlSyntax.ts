/**
 * The lexical rules of XML 1.0 (fifth edition) and Namespaces in XML 1.0 that xmlTree.ts's parser
 * checks: which characters a document may hold, what a name is, and the only references there are
 * (the five predefined entities and character references; nothing else is ever expanded).
 */

/** Thrown by the parser for a document that is not well-formed; xmlTree.ts makes it a 400. */
export class NotWellFormed extends Error {
  constructor(
    message: string,
    /** Where in the text, for the line number of the answer. */
    readonly offset: number,
  ) {
    super(message);
  }
}

/** Any character outside Char (§2.2): C0 controls other than tab, LF and CR, U+FFFE/FFFF, lone surrogates. */
const NOT_A_CHAR = /[^\t\n\r\u{20}-\u{D7FF}\u{E000}-\u{FFFD}\u{10000}-\u{10FFFF}]/u;
/** The same without surrogates, which only the slower /u pattern tells apart (paired or lone): a quick first look. */
const SUSPECT = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The first character XML does not allow, with where it is. */
export function firstNonChar(text: string): { code: number; index: number } | undefined {
  if (!SUSPECT.test(text)) return undefined;
  const found = NOT_A_CHAR.exec(text);
  return found ? { code: found[0].codePointAt(0)!, index: found.index } : undefined;
}

const NAME_START =
  ':A-Z_a-z\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}' +
  '\\u{2070}-\\u{218F}\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = `${NAME_START}\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}`;
// The rule sees U+0300–U+036F (combining marks) after other characters; here they are a range of
// NameChar (§2.3), not a character combined with the one before it.
/* eslint-disable no-misleading-character-class */
/** Name (§2.3) that is also a QName (Namespaces §4): at most one colon, neither first nor last. */
const QNAME = new RegExp(
  `^[${NAME_START.slice(1)}][${NAME_CHAR.slice(1)}]*(?::[${NAME_START.slice(1)}][${NAME_CHAR.slice(1)}]*)?$`,
  'u',
);
const NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u');
/* eslint-enable no-misleading-character-class */

// A document repeats a few dozen names thousands of times: each is checked once per parse.
export function qualifiedNameChecker(): (name: string) => boolean {
  const valid = new Set<string>();
  return (name) => {
    if (valid.has(name)) return true;
    if (!QNAME.test(name)) return false;
    valid.add(name);
    return true;
  };
}

export const isName = (name: string): boolean => NAME.test(name);

/** S (§2.3): space, tab, line feed (carriage returns are normalised away before parsing). */
export const isSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const isChar = (code: number) =>
  code === 0x09 ||
  code === 0x0a ||
  code === 0x0d ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

/**
 * Character data or an attribute value with its references replaced: &lt; &gt; &amp; &quot;
 * &apos; and &#…; / &#x…; of an allowed character. Any other `&` is not well-formed: an entity
 * that would need a DTD is refused, never looked up. `offset` is where `raw` starts in the text.
 */
export function replaceReferences(raw: string, offset: number): string {
  let out = '';
  let from = 0;
  for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
    const semicolon = raw.indexOf(';', amp + 1);
    const reference = semicolon === -1 ? '' : raw.slice(amp + 1, semicolon);
    out += raw.slice(from, amp) + referenced(reference, offset + amp);
    from = semicolon + 1;
  }
  return out + raw.slice(from);
}

function referenced(reference: string, offset: number): string {
  const predefined = PREDEFINED[reference];
  if (predefined !== undefined) return predefined;
  const code = /^#[0-9]+$/.test(reference)
    ? Number.parseInt(reference.slice(1), 10)
    : /^#x[0-9A-Fa-f]+$/.test(reference)
      ? Number.parseInt(reference.slice(2), 16)
      : undefined;
  if (code !== undefined) {
    if (!isChar(code)) throw new NotWellFormed(`&${reference}; is not a character XML allows`, offset);
    return String.fromCodePoint(code);
  }
  if (isName(reference))
    throw new NotWellFormed(`&${reference}; is not one of the five predefined entities (none other is read)`, offset);
  throw new NotWellFormed("'&' that does not begin a reference (write &amp;)", offset);
}
