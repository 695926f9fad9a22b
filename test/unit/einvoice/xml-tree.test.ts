import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { eInvoiceXml } from '../../../src/einvoice/eInvoiceDocuments.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';
import { INBOUND_PDF_BOUNDS, INBOUND_XML_BOUNDS } from '../../../src/einvoice/inbound/limits.js';
import { pdfEmbeddedFiles as scanPdf } from '../../../src/pdf/pdfEmbeddedFiles.js';
import { xmlText } from '../../../src/xml/xmlText.js';
import { parseXmlTree as parseWithBounds, type XNode } from '../../../src/xml/xmlTree.js';
import { prepareEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { CORPUS_ABSENT_MESSAGE, CORPUS_PRESENT, SHARED_EINVOICE } from '../../support/inboundCorpus.js';
import { parseXmlTreeWithSaxes } from '../../support/saxesTree.js';

/** The scanner and reader with the bounds the service reads inbound e-invoices within. */
const pdfEmbeddedFiles = (pdf: Uint8Array) => scanPdf(pdf, INBOUND_PDF_BOUNDS);
const parseXmlTree = (text: string) => parseWithBounds(text, INBOUND_XML_BOUNDS);

/**
 * Our XML parser (src/xml/xmlTree.ts) against saxes, the strict parser it replaced:
 * the same tree for every document, the same refusal for every malformed one.
 */
type Plain = { ns: string; name: string; attrs: Record<string, string>; text: string; children: Plain[] };
const plain = (node: XNode): Plain => ({
  ns: node.ns,
  name: node.name,
  attrs: { ...node.attrs },
  text: node.text,
  children: node.children.map(plain),
});

/** The tree, or the refusal's code. */
const outcome = (parse: (text: string) => XNode, text: string): Plain | string => {
  try {
    return plain(parse(text));
  } catch (error) {
    assert.ok(error instanceof InputRejected, `${String(error)} is not a refusal`);
    return error.code;
  }
};

const agree = (text: string, label: string) =>
  assert.deepEqual(outcome(parseXmlTree, text), outcome(parseXmlTreeWithSaxes, text), label);

const filesUnder = (folder: string, extension: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(folder, entry.name), extension)
      : entry.name.endsWith(extension)
        ? [join(folder, entry.name)]
        : [],
  );

describe('the XML parser reads what saxes reads', () => {
  test('this service’s own CII and UBL', () => {
    const prepared = prepareEInvoice(EXAMPLE_EINVOICE);
    for (const syntax of ['cii', 'ubl'] as const) {
      const text = eInvoiceXml(prepared, syntax).toString('utf8');
      assert.equal(typeof outcome(parseXmlTree, text), 'object');
      agree(text, syntax);
    }
  });

  test(
    'every XML file of ../shared/einvoice, and the XML inside its PDFs',
    { skip: !CORPUS_PRESENT && CORPUS_ABSENT_MESSAGE },
    () => {
      const xmlFiles = filesUnder(SHARED_EINVOICE, '.xml');
      const pdfFiles = filesUnder(SHARED_EINVOICE, '.pdf');
      assert.ok(xmlFiles.length >= 130, `${xmlFiles.length} XML files`);
      let embedded = 0;
      for (const file of xmlFiles) {
        const text = xmlText(readFileSync(file));
        assert.equal(typeof outcome(parseXmlTree, text), 'object', file);
        agree(text, file);
      }
      for (const file of pdfFiles) {
        for (const bytes of pdfEmbeddedFiles(readFileSync(file))) {
          if (!bytes.toString('latin1').trimStart().startsWith('<')) continue;
          embedded++;
          agree(xmlText(bytes), `${file} (embedded)`);
        }
      }
      assert.ok(embedded >= 10, `${embedded} embedded XML files`);
    },
  );

  test('what well-formed XML may hold', () => {
    const valid = [
      '<a/>',
      '<a></a >',
      '\uFEFF<a/>',
      '<?xml version="1.0"?><a/>',
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n<a/>\n",
      '<!-- before --><?pi data?><a><!-- inside --><?other?></a><!-- after -->\n',
      '<a>x<![CDATA[<not a tag> & ]]>y</a>',
      '<a>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x1F600;</a>',
      '<a b="1" c=\'2\' d = "3"/>',
      '<a b="x&#10;y&#9;z" c="p\tq\nr" d="&lt;&amp;"/>',
      '<a>line\r\nbreak\rend</a>',
      '<a b="one\r\ntwo"/>',
      '<p:a xmlns:p="urn:p"><p:b/><c xmlns="urn:d"><e/></c></p:a>',
      '<a xmlns="urn:x"><b xmlns=""/></a>',
      '<p:a xmlns:p="urn:1"><p:b xmlns:p="urn:2"/><p:c/></p:a>',
      '<a xml:lang="de" xmlns:q="urn:q" q:attr="v"/>',
      '<a>  spaced  <b/>  text  </a>',
      '<a>\n  <b>1</b>\n  <b>2</b>\n</a>',
      '<a>  <!--c-->  b</a>',
      '<a>]]</a>',
      '<a b=">"/>',
      '<a>></a>',
      '<a:b.c-d_e xmlns:a="urn:a"/>',
      '<ü日本>text</ü日本>',
      '<a>😀 é</a>',
      '<a><!----></a>',
      '<a><!-- - --></a>',
    ];
    for (const text of valid) {
      assert.equal(typeof outcome(parseXmlTree, text), 'object', `${text} should be read`);
      agree(text, text);
    }
  });

  test('what is not well-formed is refused alike', () => {
    const malformed = [
      '',
      '   ',
      'text',
      '<a>',
      '<a></b>',
      '<a></a><b/>',
      'x<a/>',
      '<a/>x',
      '<a><b></a></b>',
      '</a>',
      '<a b="1" b="2"/>',
      '<a b=1/>',
      '<a b/>',
      '<a b="1"c="2"/>',
      '<a b="<"/>',
      '<a b="1>',
      '<a>&bogus;</a>',
      '<a>&amp</a>',
      '<a>& b</a>',
      '<a>&#0;</a>',
      '<a>&#xD800;</a>',
      '<a>&#xFFFE;</a>',
      '<a>\u0001</a>',
      '<a>\uFFFF</a>',
      '<a>\uD800</a>',
      '<a>]]></a>',
      '<a><!-- a -- b --></a>',
      '<a><!-- a ---></a>',
      '<a><!-- never closed</a>',
      '<a><![CDATA[never closed</a>',
      '<![CDATA[x]]><a/>',
      '<a><?xml version="1.0"?></a>',
      ' <?xml version="1.0"?><a/>',
      '<?xml version="2.0"?><a/>',
      '<?xml encoding="UTF-8"?><a/>',
      '<a><?? ?></a>',
      '<a><?p:q ?></a>',
      '<1a/>',
      '<a:b:c xmlns:a="urn:a"/>',
      '<:a/>',
      '<a:/>',
      '<p:a/>',
      '<a q:b="1"/>',
      '<a xmlns:p=""/>',
      '<a xmlns:xmlns="urn:x"/>',
      '<a xmlns:xml="urn:x"/>',
      '<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>',
      '<a xmlns:p="urn:1" xmlns:q="urn:1" p:x="1" q:x="2"/>',
      '< a/>',
      '<a',
      '<a><b/',
      '<a></a',
      '<a>< /a>',
      '<!a><a/>',
      '<a><!ELEMENT a ANY></a>',
    ];
    for (const text of malformed) {
      const ours = outcome(parseXmlTree, text);
      assert.equal(typeof ours, 'string', `${JSON.stringify(text)} should be refused`);
      agree(text, JSON.stringify(text));
    }
  });

  test('a refusal says what and on which line', () => {
    assert.throws(
      () => parseXmlTree('<a>\n<b>\n</c>\n</a>'),
      (error: unknown) =>
        error instanceof InputRejected &&
        error.code === 'xml_malformed' &&
        /line 3: <\/c> does not close <b>/.test(error.message),
    );
    assert.throws(
      () => parseXmlTree('<a>&nbsp;</a>'),
      (error: unknown) =>
        error instanceof InputRejected && /&nbsp; is not one of the five predefined entities/.test(error.message),
    );
  });

  // Shapes that would make a naive parser quadratic: read (or refused) in about a second here. With
  // the quadratic duplicate check and prefix lookup this parser first had, it ran for more than a
  // minute (the parse is synchronous: the runner's per-file timeout, not this one, would end it).
  test(
    'hostile shapes are read, not stalled on: 300,000 attributes, 100,000 prefixes over 100,000 elements',
    { timeout: 20_000 },
    () => {
      const attributes = Array.from({ length: 300_000 }, (_, at) => ` a${at}=""`).join('');
      assert.equal(Object.keys(parseXmlTree(`<a${attributes}/>`).attrs).length, 300_000);
      assert.throws(() => parseXmlTree(`<a${attributes} a299999="x"/>`), /has a299999 twice/);
      const prefixes = Array.from({ length: 100_000 }, (_, at) => ` xmlns:p${at}="urn:${at}"`).join('');
      const tree = parseXmlTree(`<a${prefixes}>${'<b/>'.repeat(100_000)}<p7:c/></a>`);
      assert.equal(tree.children.length, 100_001);
      assert.equal(tree.children.at(-1)!.ns, 'urn:7');
    },
  );
});
