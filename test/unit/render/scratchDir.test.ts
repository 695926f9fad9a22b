import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openScratchDir } from '../../../src/render/scratchDir.js';

const root = mkdtempSync(join(tmpdir(), 'scratch-root-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('removes what dead processes left behind, keeps what live ones use', () => {
  // A pid that is certainly gone: a child that has exited.
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
  const stale = join(root, `render-${deadPid}-abc123`);
  const live = join(root, `render-${process.pid}-other`);
  mkdirSync(join(stale, 'org.chromium.Chromium.x'), { recursive: true });
  mkdirSync(live);

  const scratch = openScratchDir(root);
  assert.equal(existsSync(stale), false);
  assert.equal(existsSync(live), true, 'another renderer of this process is still using it');

  const profile = scratch.profile();
  assert.ok(profile.startsWith(scratch.path));
  assert.notEqual(scratch.profile(), profile, 'every browser gets a fresh profile');
  scratch.close();
  assert.equal(existsSync(scratch.path), false);
});

test('remove() deletes a browser profile in the background, without blocking the caller', async () => {
  const scratch = openScratchDir(root);
  const profile = scratch.profile();
  mkdirSync(join(profile, 'Default', 'Cache'), { recursive: true });
  scratch.remove(profile);
  // Returned before the delete ran; it finishes on libuv's thread pool within a few turns.
  assert.equal(existsSync(profile), true, 'remove() returns before the files are gone');
  for (let turn = 0; turn < 100 && existsSync(profile); turn++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(existsSync(profile), false);
  scratch.close();
});
