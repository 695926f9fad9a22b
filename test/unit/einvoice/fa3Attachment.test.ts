import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readFa3Attachment } from '../../../src/einvoice/formats/ksef/fa3Attachment.js';
import { FA3_NAMESPACE } from '../../../src/einvoice/formats/ksef/writeFa3.js';
import { INBOUND_XML_BOUNDS } from '../../../src/einvoice/inbound/limits.js';
import { readForRender } from '../../../src/einvoice/inbound/readInboundRequest.js';
import { loadInvoiceTemplates } from '../../../src/render/templates.js';
import { parseXmlTree } from '../../../src/xml/xmlTree.js';
import { needsShared, SHARED_EINVOICE } from '../../support/sharedFolder.js';

/** FA(3)'s Zalacznik (data blocks of key-value pairs, paragraphs and tables) printed as tables, not cell by cell. */
const faktura = (attachment: string) =>
  parseXmlTree(`<Faktura xmlns="${FA3_NAMESPACE}"><Fa/>${attachment}</Faktura>`, INBOUND_XML_BOUNDS);

const ATTACHMENT = `<Zalacznik><BlokDanych>
  <ZNaglowek>Odczyty licznika</ZNaglowek>
  <MetaDane><ZKlucz>Kod PPE</ZKlucz><ZWartosc>590000</ZWartosc></MetaDane>
  <Tekst><Akapit>Pierwszy akapit</Akapit><Akapit>Drugi akapit</Akapit></Tekst>
  <Tabela>
    <TMetaDane><TKlucz>Taryfa</TKlucz><TWartosc>G11</TWartosc></TMetaDane>
    <Opis>Odczyty</Opis>
    <TNaglowek><Kol Typ="txt"><NKom>Strefa</NKom></Kol><Kol Typ="date"><NKom>Data</NKom></Kol><Kol Typ="dec"><NKom>Ilość</NKom></Kol></TNaglowek>
    <Wiersz><WKom>Licznik 1</WKom></Wiersz>
    <Wiersz><WKom>całodobowa</WKom><WKom>2026-02-28</WKom><WKom>1234.50</WKom></Wiersz>
    <Suma><SKom>Razem</SKom><SKom>-</SKom><SKom>1234.50</SKom></Suma>
  </Tabela>
</BlokDanych></Zalacznik>`;

test('a Zalacznik is read as blocks: heading, pairs, paragraphs, tables with typed columns, rows and sum', () => {
  assert.deepEqual(readFa3Attachment(faktura(ATTACHMENT)), {
    element: 'Zalacznik',
    blocks: [
      {
        heading: 'Odczyty licznika',
        pairs: [{ key: 'Kod PPE', value: '590000' }],
        paragraphs: ['Pierwszy akapit', 'Drugi akapit'],
        tables: [
          {
            pairs: [{ key: 'Taryfa', value: 'G11' }],
            caption: 'Odczyty',
            columns: [
              { name: 'Strefa', type: 'txt' },
              { name: 'Data', type: 'date' },
              { name: 'Ilość', type: 'dec' },
            ],
            rows: [['Licznik 1'], ['całodobowa', '2026-02-28', '1234.50']],
            sum: ['Razem', '-', '1234.50'],
          },
        ],
      },
    ],
  });
});

test('a Zalacznik the XSD does not allow (an unknown element) is not read as tables: its values stay further details', () => {
  assert.equal(readFa3Attachment(faktura(ATTACHMENT.replace('<Opis>', '<Uwagi>x</Uwagi><Opis>'))), undefined);
  assert.equal(readFa3Attachment(faktura('')), undefined);
});

const templates = loadInvoiceTemplates();
after(() => templates.close());

test(
  "the Ministry's example 24 (an electricity bill) prints its Zalacznik as tables, none of its cells under further details",
  { skip: needsShared('ksef/examples') },
  () => {
    const bytes = readFileSync(join(SHARED_EINVOICE, 'ksef', 'examples', 'FA_3_Przykład_24.xml'));
    const render = readForRender({ bytes, format: 'xml', locale: 'pl-PL', codeArguments: {} });
    // inspect still answers every value of the attachment with its path.
    assert.ok(render.invoice.otherValues.some((value) => value.path.startsWith('Zalacznik/BlokDanych/Tabela[1]/')));
    const html = templates.printPage(templates.inboundView(render));
    assert.equal(html.match(/<table class="inbound-data__table">/g)?.length, 3);
    assert.match(html, /<caption lang="[^"]*" dir="auto">Odczyty<\/caption>/);
    assert.match(html, /<th scope="col" lang="[^"]*" dir="auto">Licznik\/Strefa<\/th>/);
    // A title row spans the table; numbers in the page's formats, at the end of their cell.
    assert.match(html, /colspan="9" class="inbound-data__group">Licznik rozliczeniowy/);
    assert.match(html, /class="num nowrap">0,9000<\/td>/);
    assert.match(html, /<dt lang="[^"]*" dir="auto">Kod PPE<\/dt><dd lang="[^"]*" dir="auto">999999999999999999<\/dd>/);
    const start = html.indexOf('>Dodatkowe informacje<');
    assert.ok(start > 0, 'the page has further details (the registers, the customer number)');
    const further = html.slice(start);
    assert.doesNotMatch(further, /Kolumna|Wartość<\/dt>|Licznik\/Strefa/);
  },
);
