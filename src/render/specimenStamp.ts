import { SPECIMEN_TEXT } from '../invoice/specimen.js';

/**
 * The stamp of a document paid with test money (src/invoice/specimen.ts): a fixed element, which
 * Chromium prints on every page, diagonally across the page in large red letters over the
 * content, and a band along the bottom edge, so no page of a specimen can be cut out and passed off
 * as an invoice. Constant markup: nothing from the request goes into it.
 */
const STAMP_CSS = `
.specimen-stamp { position: fixed; left: -10%; right: -10%; top: 40%; z-index: 2147483647; pointer-events: none;
  transform: rotate(-30deg); text-align: center; white-space: nowrap; font: 700 30pt/1.2 sans-serif;
  color: rgba(200, 0, 0, 0.45); border: 4pt solid rgba(200, 0, 0, 0.45); padding: 6pt 0; }
.specimen-band { position: fixed; left: 0; right: 0; bottom: 0; z-index: 2147483647; text-align: center;
  font: 700 9pt/1.6 sans-serif; color: #fff; background: rgb(200, 0, 0);
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }`;

const stampHtml = (word: string) =>
  `<style>${STAMP_CSS}</style>` +
  `<div class="specimen-band" aria-hidden="true">${escapeText(word)} — not an invoice</div>` +
  `<div class="specimen-stamp" role="note">${escapeText(word)}</div>`;
const STAMP_HTML = stampHtml(SPECIMEN_TEXT);
/** The same stamp on a designer's preview (POST /v1/templates/preview): free, so never an invoice. */
const PREVIEW_HTML = stampHtml('PREVIEW');

/** The page's HTML with the stamp added at the end of its body (before `</body>`, else at the end). */
export function withSpecimenStamp(html: string): string {
  return withMarkup(html, STAMP_HTML);
}

export function withPreviewStamp(html: string): string {
  return withMarkup(html, PREVIEW_HTML);
}

function withMarkup(html: string, markup: string): string {
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + markup : html.slice(0, end) + markup + html.slice(end);
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
