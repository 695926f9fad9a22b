import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mock, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { dosDateOf, ZipWriter } from '../../../src/batch/zipWriter.js';

const build = () => {
  const zip = new ZipWriter();
  zip.add('invoice-A.pdf', Buffer.from('%PDF-1.7 stored bytes'), { compress: false, date: '2026-11-02' });
  zip.add('invoice-Ä.xml', Buffer.from('<x>'.repeat(500)), { compress: true, date: '2026-11-03' });
  zip.add('manifest.json', Buffer.from('{"files":[]}\n'), { compress: true, date: '2026-11-03' });
  return zip.finish();
};

/** The entries as a ZIP reader sees them, from the central directory (an independent parse). */
function readEntries(zip: Buffer) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: { name: string; method: number; date: number; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50);
    const method = zip.readUInt16LE(at + 10);
    const date = zip.readUInt16LE(at + 14);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const raw = zip.subarray(local, local + size);
    entries.push({ name, method, date, data: method === 8 ? inflateRawSync(raw) : raw });
    at += 46 + nameLength;
  }
  return entries;
}

test('the same entries give the same bytes, whenever they are written', (t) => {
  // The clock moved by a day between two writes: a writer that stamped it would differ.
  mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-02T10:00:00Z') });
  t.after(() => mock.timers.reset());
  const first = build();
  mock.timers.setTime(Date.parse('2026-11-03T10:00:02Z'));
  assert.equal(new Date().toISOString(), '2026-11-03T10:00:02.000Z', 'the clock the writer would read moved');
  assert.deepEqual(build(), first);
});

test('entries read back in order, stored or deflated, dated with their date, UTF-8 names', () => {
  const entries = readEntries(build());
  assert.deepEqual(
    entries.map((entry) => [entry.name, entry.method]),
    [
      ['invoice-A.pdf', 0],
      ['invoice-Ä.xml', 8],
      ['manifest.json', 8],
    ],
  );
  assert.equal(entries[0]!.data.toString(), '%PDF-1.7 stored bytes');
  assert.equal(entries[1]!.data.toString(), '<x>'.repeat(500));
  assert.equal(entries[0]!.date, dosDateOf('2026-11-02'));
  assert.equal(dosDateOf('2026-11-02'), (46 << 9) | (11 << 5) | 2);
  assert.equal(dosDateOf('1970-01-01'), (1 << 5) | 1, 'before 1980: clamped');
});

test('Info-ZIP unzip tests the archive and extracts the same bytes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zipwriter-'));
  try {
    writeFileSync(join(dir, 'a.zip'), build());
    const listing = execFileSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' });
    assert.match(listing, /No errors detected/);
    execFileSync('unzip', ['-q', join(dir, 'a.zip'), '-d', join(dir, 'out')]);
    assert.equal(readFileSync(join(dir, 'out', 'invoice-A.pdf'), 'utf8'), '%PDF-1.7 stored bytes');
    assert.equal(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8'), '{"files":[]}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unsafe and duplicate names are refused', () => {
  const zip = new ZipWriter();
  for (const name of ['../evil.pdf', '/abs.pdf', 'a\\b.pdf', 'x/../../y', '']) {
    assert.throws(() => zip.add(name, Buffer.alloc(1), { compress: false, date: '2026-01-01' }), /unsafe/, name);
  }
  zip.add('a.pdf', Buffer.alloc(1), { compress: false, date: '2026-01-01' });
  assert.throws(() => zip.add('a.pdf', Buffer.alloc(1), { compress: false, date: '2026-01-01' }), /duplicate/);
});
