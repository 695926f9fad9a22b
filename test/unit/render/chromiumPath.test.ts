import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  assert.equal(findChromium(undefined, [join(dir, 'missing'), 'google-chrome', 'chromium-browser'], `/nonexistent:${dir}`), fakeBrowser);
});

test('nothing found: the error says how to install it', () => {
  assert.throws(() => findChromium(undefined, ['/nonexistent/chromium', 'google-chrome'], dir), /apt-get install -y chromium/);
});

test("Debian's headless shell binary is preferred to the full browser", () => {
  const shell = CHROMIUM_CANDIDATES.findIndex((candidate) => candidate.endsWith('chromium-headless-shell'));
  const full = CHROMIUM_CANDIDATES.indexOf('/usr/bin/chromium');
  assert.ok(shell >= 0 && full > shell, CHROMIUM_CANDIDATES.join(', '));
});

test('the headless shell is launched in shell mode, every other binary in new headless mode', () => {
  assert.equal(headlessMode('/usr/bin/chromium-headless-shell'), 'shell');
  assert.equal(headlessMode('/usr/lib/chromium/chromium-headless-shell'), 'shell');
  assert.equal(headlessMode('/usr/bin/chromium'), true);
  assert.equal(headlessMode('/opt/google/chrome/google-chrome'), true);
});
