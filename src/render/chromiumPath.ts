import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Where Chromium is. A configured path must exist (a typo should not silently fall back to some
 * other browser); otherwise the first of Debian's headless shell, Debian's full Chromium, or a
 * chromium/chrome on PATH. Puppeteer's own download is never used: it doesn't install here.
 *
 * The headless shell comes first because it is the only one that stays silent: the full browser,
 * even with --disable-background-networking, starts requests of its own at launch (network time,
 * Gaia ListAccounts, component and dictionary updates). Our host-resolver rule fails them, but
 * each resolution first runs Chromium's IPv6 reachability probe, a UDP connect() to
 * [2001:4860:4860::8888]:443 (seen with --log-net-log and strace on Chromium 156). The shell has
 * none of those services: 0 connect() calls outside AF_UNIX (test/reliability/rendering.test.ts).
 */
export const CHROMIUM_CANDIDATES = [
  // The binary, not Debian's /usr/bin wrapper: that one is `sh -e` running the shell as a child
  // (no exec), so the pid puppeteer holds would not be the browser's.
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/lib/chromium/chromium',
  'chromium-browser',
  'google-chrome',
];

const INSTALL_HINT =
  'Install it with: apt-get install -y chromium-headless-shell (or chromium; or set CHROMIUM_PATH to a Chromium or Chrome binary).';

/** Puppeteer's headless mode for a binary: the shell takes `--headless`, the full browser `--headless=new`. */
export function headlessMode(executablePath: string): 'shell' | true {
  return /headless[-_]shell/.test(executablePath) ? 'shell' : true;
}

export function findChromium(
  configured?: string,
  candidates: readonly string[] = CHROMIUM_CANDIDATES,
  searchPath: string = process.env.PATH ?? '',
): string {
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new Error(`Chromium was not found at the configured path ${configured}. ${INSTALL_HINT}`);
  }
  for (const candidate of candidates) {
    const found = isAbsolute(candidate)
      ? isExecutable(candidate)
        ? candidate
        : undefined
      : onPath(candidate, searchPath);
    if (found) return found;
  }
  throw new Error(`Chromium was not found (looked for ${candidates.join(', ')}). ${INSTALL_HINT}`);
}

function onPath(name: string, searchPath: string): string | undefined {
  return searchPath
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
