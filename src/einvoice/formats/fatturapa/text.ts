/**
 * FatturaPA's text elements take Basic Latin and Latin-1 only (String…LatinType), its codes Basic
 * Latin only. The writer prints what the JSON says as closely as those allow: a letter with an
 * accent outside Latin-1 loses the accent (ő → o), typographic quotes and dashes become their
 * ASCII forms, anything else becomes "?"; tab and newline become spaces (normalizedString).
 */
const TYPOGRAPHIC: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201C': '"', '\u201D': '"', '\u201E': '"',
  '\u2013': '-', '\u2014': '-', '\u2026': '...', '\u20AC': 'EUR', '\u00A0': ' ',
  // Letters with no decomposition into a Latin-1 base.
  '\u0141': 'L', '\u0142': 'l', '\u0110': 'D', '\u0111': 'd', '\u0131': 'i', '\u0152': 'OE', '\u0153': 'oe',
}; // prettier-ignore

/** Text FatturaPA takes as it is; Latin-1 letters are their own NFC form, so normalising changes nothing. */
const LATIN1_ONLY = /^[\u0020-\u007e\u00a1-\u00ff]*$/;

export function latin1(text: string): string {
  if (LATIN1_ONLY.test(text)) return text;
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (char === '\t' || char === '\n' || char === '\r') out += ' ';
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa1 && code <= 0xff)) out += char;
    else if (TYPOGRAPHIC[char] !== undefined) out += TYPOGRAPHIC[char];
    else {
      const base = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && /^[\u0020-\u007e\u00a1-\u00ff]+$/.test(base) ? base : '?';
    }
  }
  return out;
}

/** Basic Latin only (String20Type, String60Type: codes and numbers). */
export const isBasicLatin = (text: string): boolean => /^[\u0020-\u007e]*$/.test(text);

/** Text in chunks of at most `size` characters (Causale repeats in blocks of 200). */
export function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}
