import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { HR_EXAMPLE_REQUEST } from '../../../src/einvoice/formats/hr/example.js';
import { readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { prepareEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { loadInvoiceTemplates } from '../../../src/render/templates.js';

/**
 * A received HR-CIUS invoice in its own language (issue 52): Croatian is one of the page
 * languages, with Croatian words, amounts and dates and the seller's OIB as Croatia prints it.
 * The file is the hr profile's own example, written by the service as a Croatian seller sends it.
 */
const templates = loadInvoiceTemplates();
after(() => templates.close());

const HR_XML = eInvoiceXml(prepareEInvoice(HR_EXAMPLE_REQUEST), 'ubl');

function pageText(locale: string | undefined): string {
  const render = readForRender({ bytes: HR_XML, format: 'xml', locale, codeArguments: {} });
  const html = templates.printPage(templates.inboundView(render));
  // The page's words, after the stylesheet (whose @page box holds "Page X of Y").
  return html
    .slice(html.lastIndexOf('</style>'))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');
}

test('an HR-CIUS invoice prints in Croatian with ?locale=hr-HR', () => {
  const text = pageText('hr-HR');
  for (const words of [
    'Račun',
    'Prodavatelj',
    'Kupac',
    'Datum izdavanja',
    'Datum dospijeća',
    '2. studenoga 2026.',
    'Iznos za plaćanje',
    '7.000,00',
    'PDV (Oporezivo 25 %)',
    'Poziv na broj',
    'OIB 69435151530',
    'Vizualizacija elektroničkog računa',
  ])
    assert.ok(text.includes(words), `"${words}" on the Croatian page`);
  for (const english of ['Total due', 'Issue date', 'Due date', 'Seller', 'Visualisation'])
    assert.ok(!text.includes(english), `no English "${english}" on the Croatian page`);
});

test('without a locale the page is English, as for every received format', () => {
  const text = pageText(undefined);
  assert.ok(text.includes('Total due') && text.includes('7,000.00'), 'English words and amounts');
  assert.ok(!text.includes('Iznos za plaćanje'));
});
