import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { after, test } from 'node:test';
import { CHROMIUM_CANDIDATES, findChromium, headlessMode } from '../../../src/render/chromiumPath.js';

const dir = mkdtempSync(join(tmpdir(), 'chromium-path-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fakeBrowser = join(dir, 'chromium-browser');
writeFileSync(fakeBrowser, '#!/bin/sh\n');
chmodSync(fakeBrowser, 0o755);
const notExecutable = join(dir, 'google-chrome');
writeFileSync(notExecutable, '');

test('a configured path is used as given', () => {
  assert.equal(findChromium(fakeBrowser, []), fakeBrowser);
});

test('a configured path that does not exist is an error, not a silent fallback', () => {
  assert.throws(() => findChromium(join(dir, 'nope')), /configured path .*nope.*apt-get install -y chromium/s);
});

test('absolute candidates first, then names on PATH; files that are not executable do not count', () => {
  assert.equal(
    findChromium(undefined, [join(dir, 'missing'), 'google-chrome', 'chromium-browser'], `/nonexistent:${dir}`),
    fakeBrowser,
  );
});

test('nothing found: the error says how to install it', () => {
  assert.throws(
    () => findChromium(undefined, ['/nonexistent/chromium', 'google-chrome'], dir),
    /apt-get install -y chromium/,
  );
});

test("with Debian's headless shell and full Chromium both installed, the real candidate list picks the shell", () => {
  // The real candidates, their absolute paths moved under a scratch root where fake binaries stand in.
  const root = mkdtempSync(join(tmpdir(), 'chromium-root-'));
  try {
    const under = (path: string) => (isAbsolute(path) ? join(root, path) : path);
    const install = (path: string) => {
      mkdirSync(dirname(under(path)), { recursive: true });
      writeFileSync(under(path), '#!/bin/sh\n');
      chmodSync(under(path), 0o755);
    };
    install('/usr/bin/chromium');
    install('/usr/lib/chromium/chromium-headless-shell');
    const candidates = CHROMIUM_CANDIDATES.map(under);
    const found = findChromium(undefined, candidates, '/nonexistent');
    assert.equal(found, under('/usr/lib/chromium/chromium-headless-shell'));
    assert.equal(headlessMode(found), 'shell');
    rmSync(under('/usr/lib/chromium/chromium-headless-shell'));
    assert.equal(
      findChromium(undefined, candidates, '/nonexistent'),
      under('/usr/bin/chromium'),
      'the full browser when the shell is missing',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the headless shell is launched in shell mode, every other binary in new headless mode', () => {
  assert.equal(headlessMode('/usr/bin/chromium-headless-shell'), 'shell');
  assert.equal(headlessMode('/usr/lib/chromium/chromium-headless-shell'), 'shell');
  assert.equal(headlessMode('/usr/bin/chromium'), true);
  assert.equal(headlessMode('/opt/google/chrome/google-chrome'), true);
});
