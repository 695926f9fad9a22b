import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Where Chromium is. A configured path must exist (a typo should not silently fall back to some
 * other browser); otherwise the first of Debian's wrapper, Debian's binary, or a chromium/chrome
 * on PATH. Puppeteer's own download is never used: it doesn't install on these machines.
 */
export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/lib/chromium/chromium', 'chromium-browser', 'google-chrome'];

const INSTALL_HINT = 'Install it with: apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium or Chrome binary).';

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
    const found = isAbsolute(candidate) ? (isExecutable(candidate) ? candidate : undefined) : onPath(candidate, searchPath);
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
