#!/usr/bin/env node
// Set-up shared by `npm start` and `npm test`: Node version, npm dependencies, and the Debian
// packages the service needs (Chromium's headless shell and fonts; full Chromium, Poppler, Redis,
// strace and zbar for the tests). Fast when everything is already there; installs what is missing when
// it can (root + apt-get), otherwise stops with the exact command to run. Uses only Node
// built-ins: it runs before the npm install.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const PACKAGES = {
  start: [
    // Prints the PDFs: the headless shell makes no network requests of its own (src/render/chromiumPath.ts).
    {
      pkg: 'chromium-headless-shell',
      check: ['/usr/bin/chromium-headless-shell', '/usr/lib/chromium/chromium-headless-shell'],
    },
    { pkg: 'fonts-noto-core', check: ['/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf'] },
    { pkg: 'fonts-dejavu-core', check: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'] },
    // Fullwidth yen sign (JPY) and Japanese text.
    { pkg: 'fonts-ipafont-gothic', check: ['/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf'] },
    // Chinese, Japanese and Korean names and addresses.
    { pkg: 'fonts-noto-cjk', check: ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'] },
  ],
  test: [
    // The full browser: Playwright drives the preview with it.
    { pkg: 'chromium', check: ['/usr/bin/chromium', '/usr/lib/chromium/chromium'] },
    { pkg: 'poppler-utils', check: ['/usr/bin/pdftotext', '/usr/bin/pdfinfo', '/usr/bin/pdftoppm'] },
    { pkg: 'redis-server', check: ['/usr/bin/redis-server'] },
    // The reliability suite counts Chromium's connect() calls with strace.
    { pkg: 'strace', check: ['/usr/bin/strace'] },
    // The payment QR tests read the codes back from the printed PDF with zbarimg.
    { pkg: 'zbar-tools', check: ['/usr/bin/zbarimg'] },
    // PDFBox Preflight, the PDF/A smoke test of the Factur-X PDFs; on Java 17 it needs the
    // activation and JAXB APIs that the JDK no longer ships.
    { pkg: 'libpdfbox2-java', check: ['/usr/share/java/preflight.jar'] },
    { pkg: 'libactivation-java', check: ['/usr/share/java/javax.activation.jar'] },
    { pkg: 'libjaxb-api-java', check: ['/usr/share/java/jaxb-api.jar'] },
    { pkg: 'default-jre-headless', check: ['/usr/bin/java'] },
    // What ../shared/einvoice/check-xml (the e-invoice tests' oracle) runs: it installs them itself
    // when missing, but several test files call it at once on a fresh machine, and all but one
    // apt-get then fail on dpkg's lock (einvoice-corpus and national-corpus failed so, 2026-12-07).
    { pkg: 'libsaxonhe-java', check: ['/usr/share/java/Saxon-HE.jar'] },
    { pkg: 'libxml2-utils', check: ['/usr/bin/xmllint'] },
    // The paid flow through a reverse proxy with its default header buffers (test/e2e/nginx-proxy.test.ts).
    { pkg: 'nginx', check: ['/usr/sbin/nginx'] },
  ],
};

function say(message) {
  process.stderr.write(`[setup] ${message}\n`);
}

function fail(message) {
  say(message);
  process.exit(1);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 11))
    fail(`Node.js >= 20.11 is required; this is ${process.versions.node}.`);
}

/**
 * The install is current when npm's own record of it (node_modules/.package-lock.json) is not older
 * than package-lock.json, or lists the same packages at the same versions: a checkout (a clone, a
 * worktree, a merge) gives the lock a new time without changing what it says.
 */
function installIsCurrent(lock, installed) {
  if (!existsSync(installed)) return false;
  if (statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return true;
  const versions = (file) =>
    Object.entries(JSON.parse(readFileSync(file, 'utf8')).packages ?? {})
      .filter(([path, entry]) => path !== '' && !entry.optional)
      .map(([path, entry]) => `${path}@${entry.version}`)
      .sort()
      .join('\n');
  return versions(lock) === versions(installed);
}

function ensureDependencies() {
  const lock = join(root, 'package-lock.json');
  const modules = join(root, 'node_modules');
  if (installIsCurrent(lock, join(modules, '.package-lock.json'))) return;
  // A node_modules that is a link to another checkout's is shared: `npm ci` would empty the
  // directory it points to under every checkout using it. Its owner installs it.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    say(`node_modules links to ${realpathSync(modules)}, which does not match package-lock.json; install there.`);
    return;
  }
  // `npm ci`: installs exactly what package-lock.json says and never rewrites it, so a fresh
  // clone's set-up leaves `git status` clean. The lock lists every platform's optional anvil
  // binary; npm fetches only this platform's.
  say('installing npm dependencies (npm ci)...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) fail('`npm ci` failed; see the output above.');
}

function ensurePackages(purposes) {
  const wanted = purposes.flatMap((purpose) => PACKAGES[purpose]);
  const missing = wanted.filter(({ check }) => !check.some((path) => existsSync(path))).map(({ pkg }) => pkg);
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    fail(
      `missing system packages: ${missing.join(', ')}.\nInstall them (Debian/Ubuntu) with:\n  sudo sh -c '${command}'`,
    );
  }
  say(`installing system packages: ${missing.join(', ')} (apt-get)...`);
  try {
    execFileSync('sh', ['-c', command], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    fail(`installing ${missing.join(', ')} failed. Run yourself:\n  ${command}`);
  }
}

export function setup(purposes) {
  checkNode();
  ensureDependencies();
  ensurePackages(purposes);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  setup(process.argv.slice(2).length ? process.argv.slice(2) : ['start']);
}
