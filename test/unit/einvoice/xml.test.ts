import assert from 'node:assert/strict';
import { test } from 'node:test';
import { el, leaf, serializeXml } from '../../../src/einvoice/xml.js';

test('text and attributes are escaped; absent children and leaves are left out', () => {
  const xml = serializeXml(
    el(
      'a:Root',
      { note: 'say "hi" & <bye>\n' },
      leaf('a:T', '</a:T><evil x="1">&amp;'),
      leaf('a:None', undefined),
      false,
      [leaf('a:U', 'ü 😀 \uFFFE \uD800')],
    ),
    { a: 'urn:x' },
  );
  assert.equal(
    xml,
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
      '<a:Root xmlns:a="urn:x" note="say &quot;hi&quot; &amp; &lt;bye&gt;&#10;">\n' +
      '  <a:T>&lt;/a:T&gt;&lt;evil x="1"&gt;&amp;amp;</a:T>\n' +
      '  <a:U>ü 😀 \uFFFD \uFFFD</a:U>\n' +
      '</a:Root>\n',
  );
});

test('an element without children is self-closed, text "" is kept as an empty element', () => {
  assert.equal(
    serializeXml(el('R', null, el('E', null), leaf('T', '')), {}),
    '<?xml version="1.0" encoding="UTF-8"?>\n<R>\n  <E/>\n  <T></T>\n</R>\n',
  );
});
