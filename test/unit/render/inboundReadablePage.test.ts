import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { InputRejected } from '../../../src/errors.js';
import { detailTerm } from '../../../src/render/inbound/detailTerms.js';
import { isRepeat } from '../../../src/render/inbound/furtherDetails.js';
import { loadInvoiceTemplates } from '../../../src/render/templates.js';
import { EINVOICE_ORACLE } from '../../support/einvoiceOracle.js';
import { needsShared } from '../../support/sharedFolder.js';

/**
 * The page render.pdf prints of a received document is for a person: every official example of
 * every format the service reads (../shared/einvoice: EN 16931, XRechnung, Factur-X, Peppol, PINT,
 * HR-CIUS, FatturaPA, KSeF FA(3), the real-world corpus, hybrid PDFs) is printed to HTML, in English
 * and in the document's own language, and its text must show no element path, no identifier as
 * "BT-30:", "ID 0035:" or "@ 0195:", no tax scheme or signature element repeated under "Further
 * details", no BT number or JSON name standing for a word ("BT-158: MP: 43211503", "BT-112
 * grand_total"), no FatturaPA element as a document's number. Every value under "Further details"
 * has a label from the catalogs (render/inbound/detailTerms.ts): none falls back to "Other value".
 * Cheap: the HTML, not Chromium.
 */
const templates = loadInvoiceTemplates();
after(() => templates.close());

const SKIPPED = new Set(['verifactu', 'xsd', 'xslt', 'check-xml', 'docs', 'original']);
function examples(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : examples(path);
    return /\.(xml|pdf|p7m)$/i.test(name) ? [path] : [];
  });
}

const PATH_LIKE = [
  /\b[A-Z][a-z]+[A-Z][A-Za-z]*(\[\d+\])?\/[A-Z][A-Za-z]+/, // TaxTotal/TaxSubtotal, InvoiceLine[1]/Item
  /(^|\s)@ \d{4}/, // "@ 0195: SGUEN…"
  /\bID \d{4}: /, // "ID 0035: 579…"
  /\bBT-30: /, // a party's legal registration as "BT-30: 200212345Z"
  /(^|\s)B[TG]-[\d-]+: /, // a BT number standing for a word: "BT-158: MP: 43211503", "BG-18: …"
  /\bB[TG]-[\d-]+ [a-z]+_[a-z_]+\b/, // a total by its JSON name: "BT-112 grand_total"
  /FatturaElettronicaBody/, // a FatturaPA body's number as its element
];

function pageText(html: string): { page: string; further: string } {
  const text = html
    .slice(html.lastIndexOf('</style>'))
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<(br|\/p|\/div|\/dt|\/dd|\/h2)[^>]*>/g, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
  const start = text.search(
    /\n\s*(Further details|Ulteriori dettagli|Dodatkowe informacje|その他の詳細|Weitere Angaben|Dodatni podaci)\s*\n/,
  );
  if (start < 0) return { page: text, further: '' };
  return { page: text.slice(0, start), further: text.slice(start) };
}

const OWN_LANGUAGE: [RegExp, string][] = [
  [/fatturapa/i, 'it'],
  [/ksef/i, 'pl'],
  [/pint\/jp/, 'ja'],
  [/croatia|hr-cius/i, 'hr'],
];

test(
  'every official example prints without paths, rule syntax or repeated tax schemes',
  { skip: needsShared('en16931', 'pint', 'corpus') },
  () => {
    const files = examples(EINVOICE_ORACLE);
    assert.ok(files.length > 250, `${files.length} examples`);
    let printed = 0;
    const failures: string[] = [];
    const withoutTerm = new Set<string>();
    for (const file of files) {
      const own = OWN_LANGUAGE.find(([pattern]) => pattern.test(file))?.[1];
      for (const locale of ['en', ...(own ? [own] : [])]) {
        let render;
        try {
          render = readForRender({
            bytes: readFileSync(file),
            format: /\.pdf$/i.test(file) ? 'pdf' : 'xml',
            locale,
            codeArguments: {},
          });
        } catch (error) {
          if (error instanceof InputRejected) continue; // a broken example the reader refuses (tested elsewhere)
          throw error;
        }
        const pages = [render, ...(render.further ?? []).map((further) => ({ ...render, ...further }))];
        for (const one of pages) {
          const { page, further } = pageText(templates.printPage(templates.inboundView(one)));
          const hit = PATH_LIKE.map((pattern) => pattern.exec(page + further)?.[0]).find(Boolean);
          if (hit) failures.push(`${file} (${locale}): ${hit}`);
          if (/TaxScheme\/ID|UBLVersionID|SignedInfo\//.test(further))
            failures.push(`${file} (${locale}): a repeat in further details`);
        }
        for (const { path } of render.invoice.otherValues) {
          const plain = path.replace(/\[\d+\]/g, '');
          if (!isRepeat(plain) && !detailTerm(plain).known) withoutTerm.add(plain);
        }
        printed += 1;
      }
    }
    assert.ok(printed > 250, `${printed} pages`);
    assert.deepEqual(failures.slice(0, 20), [], `${failures.length} pages with a path-like label`);
    assert.deepEqual([...withoutTerm], [], 'values "Further details" has no words for');
  },
);
