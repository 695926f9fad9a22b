import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { readFontFile } from '../../src/fonts/fontFile.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { LANGUAGES } from '../../src/invoice/locales.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { createMemoryFontStore, type FontStore } from '../../src/themes/fontStore.js';
import { resolveStoredLook } from '../../src/themes/storedThemes.js';
import { normalizeText, pdfFonts, pdfPages } from '../fixtures/pdfTools.js';
import { LATIN_ONLY_CHARACTERS, latinOnlyFont } from '../support/testFonts.js';

/**
 * Never a missing glyph: an invoice in each of the service's languages, printed in a Latin-only brand
 * font, draws what the font lacks (Arabic, Hebrew, Devanagari, CJK, ₹, ₪) in the service's fonts.
 * No glyph 0 (.notdef, the empty box) is shown anywhere in the PDF's content streams, and every
 * note comes back from the text layer.
 */
let renderer: Renderer;
let fonts: FontStore;
let fontId: string;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
  fonts = createMemoryFontStore();
  const bytes = await latinOnlyFont('woff2');
  const facts = readFontFile(bytes);
  fontId = facts.id;
  await fonts.put({ facts, base64: bytes.toString('base64') });
});
after(async () => {
  await renderer?.close();
  await fonts?.close();
});

const NOTES: Record<(typeof LANGUAGES)[number], { locale: string; currency: string; note: string }> = {
  en: { locale: 'en-US', currency: 'USD', note: 'Thank you for your business' },
  de: { locale: 'de-DE', currency: 'EUR', note: 'Vielen Dank für Ihren Auftrag, Grüße aus Köln' },
  fr: { locale: 'fr-FR', currency: 'EUR', note: 'Merci pour votre confiance, à bientôt' },
  es: { locale: 'es-ES', currency: 'EUR', note: 'Gracias por su confianza, señora Muñoz' },
  it: { locale: 'it-IT', currency: 'EUR', note: 'Grazie per la fiducia, città di Forlì' },
  nl: { locale: 'nl-NL', currency: 'EUR', note: 'Bedankt voor uw vertrouwen, één keer' },
  pt: { locale: 'pt-PT', currency: 'EUR', note: 'Obrigado pela confiança, ação rápida' },
  pl: { locale: 'pl-PL', currency: 'PLN', note: 'Dziękujemy za zaufanie, Łódź' },
  sv: { locale: 'sv-SE', currency: 'EUR', note: 'Tack för förtroendet, Göteborg' },
  hr: { locale: 'hr-HR', currency: 'EUR', note: 'Hvala na povjerenju, Čakovec, Đakovo, Šibenik, Žminj, Ćićarija' },
  ja: { locale: 'ja-JP', currency: 'JPY', note: 'お取引ありがとうございます' },
  zh: { locale: 'zh-CN', currency: 'CNY', note: '感谢您的惠顾' },
  ar: { locale: 'ar-AE', currency: 'AED', note: 'شكرا لتعاملكم معنا' },
  he: { locale: 'he-IL', currency: 'EUR', note: 'תודה על העסקה ₪' },
  hi: { locale: 'hi-IN', currency: 'INR', note: 'आपके व्यापार के लिए धन्यवाद ₹' },
};

/** The glyph ids every text-showing operator draws with a two-byte (Identity-H) font: 0 is .notdef. */
function notdefShown(pdf: Buffer): number {
  const text = pdf.toString('latin1');
  let count = 0;
  for (let at = text.indexOf('stream'); at >= 0; at = text.indexOf('stream', at + 6)) {
    const begin = text[at + 6] === '\r' ? at + 8 : at + 7;
    const end = text.indexOf('endstream', begin);
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(begin, end)).toString('latin1');
    } catch {
      continue; // not a Flate stream (an image, a font program)
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
      if (hex!.length % 4 === 0 && hex!.match(/.{4}/g)!.includes('0000')) count++;
    at = end;
  }
  return count;
}

test(
  'every language in a Latin-only brand font: no .notdef, the text in the text layer',
  { timeout: 240_000 },
  async () => {
    assert.ok(!LATIN_ONLY_CHARACTERS.has(0x20b9) && !LATIN_ONLY_CHARACTERS.has(0x5d0), 'the font lacks ₹ and Hebrew');
    assert.equal(Object.keys(NOTES).length, LANGUAGES.length);
    for (const language of LANGUAGES) {
      const { locale, currency, note } = NOTES[language];
      const prepared = await resolveStoredLook(
        undefined,
        fonts,
        prepareInvoice({ ...EXAMPLE_INVOICE, locale, currency, notes: note, theme: { font: fontId } }),
      );
      const { pdf } = await renderer.renderPdf(prepared);
      assert.equal(notdefShown(pdf), 0, `${language}: a .notdef glyph is shown`);
      const text = normalizeText(pdfPages(pdf).join('\n')).replace(/\s+/g, ' ');
      for (const word of note.split(' ')) assert.ok(text.includes(word), `${language}: "${word}" in the text layer`);
      assert.ok(
        pdfFonts(pdf).some((font) => /NotoSerif/.test(font.name)),
        `${language}: the brand font is used`,
      );
    }
    // The check finds a .notdef when one is shown: a private-use character no font has.
    const tofu = await renderer.renderPdf(prepareInvoice({ ...EXAMPLE_INVOICE, notes: 'box \u{10FFFD} here' }));
    assert.ok(notdefShown(tofu.pdf) > 0);
  },
);
