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

const STAMP_HTML =
  `<style>${STAMP_CSS}</style>` +
  `<div class="specimen-band" aria-hidden="true">${escapeText(SPECIMEN_TEXT)} — not an invoice</div>` +
  `<div class="specimen-stamp" role="note">${escapeText(SPECIMEN_TEXT)}</div>`;

/** The page's HTML with the stamp added at the end of its body (before `</body>`, else at the end). */
export function withSpecimenStamp(html: string): string {
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + STAMP_HTML : html.slice(0, end) + STAMP_HTML + html.slice(end);
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
