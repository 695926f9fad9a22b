// Several test files of a tier in one process (scripts/test.mjs): a file's own process cost it
// Node's start and the import of what it tests (the app and its packages: 0.7-0.9 s of CPU for an
// integration file, bundled), again for each file. A group's process imports the shared chunks
// once and runs its files one after another, each file's tests inside a suite named after the file,
// so that its top-level before/after hooks stay its own (they run before and after its own tests
// only, as in a process of its own). Files that must not share a process run alone (`alone`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Packs `files` ({ name, wall } expected seconds) into groups of at most `wallPerGroup` expected
 * seconds, longest first, each into the group with the least wall that still has room; files
 * named in `alone`, or expected to take the whole of a group, get a group of their own.
 */
export function packGroups(files, { wallPerGroup, alone = [] }) {
  const groups = [];
  for (const file of [...files].sort((a, b) => b.wall - a.wall)) {
    const fits = alone.includes(file.name)
      ? undefined
      : groups
          .filter((group) => !group.alone && group.wall + file.wall <= wallPerGroup)
          .sort((a, b) => a.wall - b.wall)[0];
    if (fits) {
      fits.files.push(file.name);
      fits.wall += file.wall;
    } else
      groups.push({
        files: [file.name],
        wall: file.wall,
        alone: alone.includes(file.name) || file.wall >= wallPerGroup,
      });
  }
  return groups.map((group) => group.files);
}

/**
 * The globalThis key (Symbol.for) of the function through which a group's files hand over what is
 * to be closed once all of them are done (test/support/sharedWorld.ts AT_PROCESS_END): set only by
 * a group's entry, so that a file alone closes what it started itself.
 */
export const AT_PROCESS_END_KEY = 'invoice-pdf-x402.test.atProcessEnd';

/**
 * Writes the entry of a group's process to `path`: each of `files` ([name, bundle path]) imported
 * inside a suite of its own, in order; its wall and CPU (its threads' and those of the Chromium and
 * JVM processes it started and saw end) appended as a JSON line to `figuresPath`.
 */
export function writeGroupEntry(path, files, figuresPath) {
  const lines = [
    "import { after, before, describe } from 'node:test';",
    "import { appendFileSync, readFileSync } from 'node:fs';",
    `const figuresPath = ${JSON.stringify(figuresPath)};`,
    // What the files share for the whole process (test/support/sharedWorld.ts: the payment world)
    // is closed here, after the last file's own after(), last registered first.
    'const atEnd = [];',
    `globalThis[Symbol.for(${JSON.stringify(AT_PROCESS_END_KEY)})] = (close) => atEnd.push(close);`,
    'after(async () => { for (const close of atEnd.reverse()) await close(); });',
    // The CPU of this process and of the children it waited for (a Chromium closed, a JVM that
    // ended): utime, stime, cutime and cstime of /proc/self/stat; elsewhere this process's own.
    'function seconds() {',
    '  try {',
    "    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');",
    '    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;',
    '  } catch {',
    '    const { user, system } = process.cpuUsage();',
    '    return (user + system) / 1e6;',
    '  }',
    '}',
    'function inSuite(name, url) {',
    '  describe(name, async () => {',
    '    let wall = 0;',
    '    let cpu = 0;',
    // Registered before the file's own hooks: starts first; the after() below is registered after
    // them, so it ends last.
    '    before(() => { wall = performance.now(); cpu = seconds(); });',
    '    await import(url);',
    '    after(() => appendFileSync(figuresPath, JSON.stringify({ name, wall: (performance.now() - wall) / 1000, cpu: seconds() - cpu }) + "\\n"));',
    '  });',
    '}',
    ...files.map(
      ([name, bundle]) => `inSuite(${JSON.stringify(name)}, ${JSON.stringify(pathToFileURL(bundle).href)});`,
    ),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/**
 * Each file's wall and CPU seconds in a group that took `cpu` seconds in all: its wall as measured
 * in the group, and the group's CPU shared out by what each file was seen to use (what the group
 * spent outside them, its start and imports, in proportion).
 * A file that wrote no line (it failed to load, or the group was killed) gets an equal share.
 */
export function figuresOfGroup(files, figuresPath, cpu) {
  // Nothing written: the shares stay equal.
  const measured = readJsonLines(figuresPath);
  const byName = new Map(measured.map((figures) => [figures.name, figures]));
  const inProcess = files.reduce((sum, name) => sum + (byName.get(name)?.cpu ?? 0), 0);
  return Object.fromEntries(
    files.map((name) => {
      const own = byName.get(name);
      const part = own && inProcess > 0 ? own.cpu / inProcess : 1 / files.length;
      return [name, [own?.wall ?? 0, cpu * part]];
    }),
  );
}

/**
 * The JSON lines a test process wrote to `path` (its figures here, its outcomes: scripts/test.mjs),
 * none when it wrote nothing (it failed to start, or was killed before).
 */
export function readJsonLines(path) {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

export const groupEntryPath = (outdir, index) => join(outdir, `group-${index}.mjs`);
