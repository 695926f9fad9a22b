import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileNamesOf, safeStem } from '../../../src/batch/fileNames.js';

test('names come from the invoice numbers, unsafe characters replaced', () => {
  const table: [string, string][] = [
    ['INV-2026-0042', 'INV-2026-0042'],
    ['2026/11 #7', '2026_11_7'],
    ['../../etc/passwd', 'etc_passwd'],
    ['.hidden', 'hidden'],
    ['C:\\temp\\x', 'C_temp_x'],
    ['Rechnung Nr. 5', 'Rechnung_Nr._5'],
    ['请求书-1', '-1'],
    ['///', 'unnamed'],
    ['x'.repeat(100), 'x'.repeat(64)],
  ];
  for (const [number, stem] of table) assert.equal(safeStem(number), stem, number);
});

test('names that collide after cleaning, or by letter case only, get -2, -3 in item order', () => {
  assert.deepEqual(fileNamesOf(['A/1', 'A_1', 'a 1', 'B'], '.pdf'), [
    'invoice-A_1.pdf',
    'invoice-A_1-2.pdf',
    'invoice-a_1-3.pdf',
    'invoice-B.pdf',
  ]);
  // "x" collides with invoice-X.pdf, then its -2 with invoice-X-2.pdf's number: -3.
  assert.deepEqual(fileNamesOf(['X', 'X-2', 'x'], '.pdf'), ['invoice-X.pdf', 'invoice-X-2.pdf', 'invoice-x-3.pdf']);
  const names = fileNamesOf(['X', 'X-2', 'x'], '.pdf');
  assert.equal(new Set(names.map((name) => name.toLowerCase())).size, 3, names.join(', '));
});
