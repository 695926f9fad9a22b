import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { AT_PROCESS_END_KEY, figuresOfGroup, packGroups, writeGroupEntry } from '../../../scripts/testGroups.mjs';

/**
 * npm test's groups (scripts/testGroups.mjs): several files in one process, each file's top-level
 * hooks around its own tests only, as in a process of its own; and how the files are packed.
 */

test('files are packed up to the wall of a group; a file named alone, or as long as a group, has its own', () => {
  const groups = packGroups(
    [
      { name: 'a', wall: 20 },
      { name: 'b', wall: 15 },
      { name: 'c', wall: 10 },
      { name: 'd', wall: 8 },
      { name: 'threads', wall: 1 },
      { name: 'corpus', wall: 70 },
    ],
    { wallPerGroup: 30, alone: ['threads'] },
  );
  assert.deepEqual(
    groups.map((group) => [...group].sort()),
    [['corpus'], ['a', 'd'], ['b', 'c'], ['threads']],
  );
});

/**
 * Writes `dir/<name>.mjs`, a test file made of `lines`, which log what runs through `say(text)`
 * (a statement appending the text as a line of `log`); returns [name, path] as writeGroupEntry takes it.
 */
function loggingFile(dir: string, log: string, name: string, lines: (say: (text: string) => string) => string[]) {
  const path = join(dir, `${name}.mjs`);
  const say = (text: string) => `appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(`${text}\n`)})`;
  writeFileSync(path, ["import { appendFileSync } from 'node:fs';", ...lines(say)].join('\n'));
  return [name, path] as [string, string];
}

test("a group runs its files one after another, each file's before and after around its own tests", () => {
  const dir = mkdtempSync(join(tmpdir(), 'test-groups-'));
  try {
    const log = join(dir, 'log');
    const file = (name: string) =>
      loggingFile(dir, log, name, (say) => [
        "import { after, before, beforeEach, test } from 'node:test';",
        `before(() => ${say(`${name} before`)});`,
        `beforeEach(() => ${say(`${name} beforeEach`)});`,
        `after(() => ${say(`${name} after`)});`,
        `test('${name} 1', async () => { await new Promise((resolve) => setTimeout(resolve, 20)); ${say(`${name} 1`)}; });`,
        `test('${name} 2', () => ${say(`${name} 2`)});`,
      ]);
    const entry = join(dir, 'group.mjs');
    const figures = join(dir, 'figures.jsonl');
    writeGroupEntry(entry, [file('a'), file('b')], figures);
    execFileSync(process.execPath, ['--test-reporter=dot', entry], { stdio: 'pipe' });
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
      'a before',
      'a beforeEach',
      'a 1',
      'a beforeEach',
      'a 2',
      'a after',
      'b before',
      'b beforeEach',
      'b 1',
      'b beforeEach',
      'b 2',
      'b after',
    ]);
    // Each file's wall as measured in the group; the group's CPU shared out by what each used.
    const shares = figuresOfGroup(['a', 'b'], figures, 10);
    assert.ok(shares['a']![0] >= 0.02, `a's wall: ${shares['a']![0]}`);
    assert.ok(Math.abs(shares['a']![1] + shares['b']![1] - 10) < 1e-9);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("what a group's files share is closed after the last file's after(), last handed over first; a file alone is not offered it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'test-groups-'));
  try {
    const log = join(dir, 'log');
    // As test/support/sharedWorld.ts does: the first file that needs a piece starts it in its
    // before() and hands its close over to the group's entry, if there is one.
    const file = (name: string) =>
      loggingFile(dir, log, name, (say) => [
        "import { after, before, test } from 'node:test';",
        `const atEnd = globalThis[Symbol.for(${JSON.stringify(AT_PROCESS_END_KEY)})];`,
        'before(async () => {',
        `  if (!atEnd) return ${say(`${name} alone`)};`,
        `  atEnd(async () => { await new Promise((resolve) => setTimeout(resolve, 20)); ${say(`${name}'s piece closed`)}; });`,
        '});',
        `after(() => ${say(`${name} after`)});`,
        `test('${name}', () => {});`,
      ]);
    const entry = join(dir, 'group.mjs');
    const [a, b] = [file('a'), file('b')];
    writeGroupEntry(entry, [a, b], join(dir, 'figures.jsonl'));
    execFileSync(process.execPath, ['--test-reporter=dot', entry], { stdio: 'pipe' });
    execFileSync(process.execPath, ['--test-reporter=dot', a[1]], { stdio: 'pipe' });
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [
      'a after',
      'b after',
      "b's piece closed",
      "a's piece closed",
      'a alone',
      'a after',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failing file fails its group, and is named as the one that failed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'test-groups-'));
  try {
    writeFileSync(join(dir, 'ok.mjs'), "import { test } from 'node:test'; test('fine', () => {});");
    writeFileSync(
      join(dir, 'broken.mjs'),
      "import { test } from 'node:test'; import assert from 'node:assert'; test('broken', () => assert.equal(1, 2));",
    );
    const entry = join(dir, 'group.mjs');
    writeGroupEntry(
      entry,
      [
        ['broken', join(dir, 'broken.mjs')],
        ['ok', join(dir, 'ok.mjs')],
      ],
      join(dir, 'figures.jsonl'),
    );
    // npm test's outcome reporter names the file that failed, not the group (its first file).
    const outcomes = join(dir, 'outcomes.jsonl');
    const reporter = pathToFileURL(join(process.cwd(), 'scripts', 'outcomeReporter.mjs')).href;
    assert.throws(() =>
      execFileSync(
        process.execPath,
        [`--test-reporter=${reporter}`, `--test-reporter-destination=${outcomes}`, entry],
        { stdio: 'pipe' },
      ),
    );
    const lines = readFileSync(outcomes, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(lines, [{ failed: 'broken' }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
