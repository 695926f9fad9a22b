import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DesignName } from '../invoice/designFields.js';
import { fileURLToPath } from 'node:url';
import { DATA_VERSION, type TemplatePackage } from '../invoice/templatePackage.js';

/** A built-in design as a complete package: every partial it uses, its template and its design.css. */
export interface BuiltinPackage {
  name: DesignName;
  data_version: number;
  html: string;
  css: string;
  partials: Record<string, string>;
}

/** The project root (as render/templates.ts has it), where templates/ lives. */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const cache = new Map<string, BuiltinPackage>();

/**
 * templates/designs/<name>/ read as the package GET /v1/templates/<name> answers: its own
 * invoice.hbs or the shared one, its design.css (the styles under it, styles/*.css, are the
 * service's and always there), and the shared partials with its own over them.
 */
export function builtinPackage(name: DesignName, root = PROJECT_ROOT): BuiltinPackage {
  const key = `${root}\0${name}`;
  let found = cache.get(key);
  if (!found) cache.set(key, (found = readBuiltin(name, root)));
  return found;
}

function readBuiltin(name: DesignName, root: string): BuiltinPackage {
  const folder = join(root, 'templates', 'designs', name);
  const partials: Record<string, string> = {};
  for (const dir of [join(root, 'templates', 'partials'), join(folder, 'partials')]) {
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)
      .filter((entry) => entry.endsWith('.hbs'))
      .sort())
      partials[basename(file, '.hbs')] = readFileSync(join(dir, file), 'utf8');
  }
  const own = join(folder, 'invoice.hbs');
  return {
    name,
    data_version: DATA_VERSION,
    html: readFileSync(existsSync(own) ? own : join(root, 'templates', 'invoice.hbs'), 'utf8'),
    css: readFileSync(join(folder, 'design.css'), 'utf8'),
    partials,
  };
}

/** The names of the shared partials a package may override (templates/partials/*.hbs). */
export function sharedPartialNames(root = PROJECT_ROOT): ReadonlySet<string> {
  return new Set(Object.keys(builtinPackage('classic', root).partials));
}

/** A stored package with what it leaves out taken from built-in classic: every file the page needs. */
export function completePackage(pkg: TemplatePackage, root = PROJECT_ROOT): Required<TemplatePackage> {
  const classic = builtinPackage('classic', root);
  return {
    data_version: pkg.data_version ?? DATA_VERSION,
    html: pkg.html ?? classic.html,
    css: pkg.css ?? classic.css,
    partials: { ...classic.partials, ...pkg.partials },
    fonts: pkg.fonts ?? {},
  };
}
