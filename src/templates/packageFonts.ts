import { validationFailed, type Issue } from '../errors.js';
import type { StoredFont } from '../fonts/fontFace.js';
import type { PackageFonts } from '../render/packageFontFaces.js';
import { FONT_TTL_SECONDS, loadFonts, type FontStore } from '../themes/fontStore.js';
import type { TemplatePackage } from '../invoice/templatePackage.js';

/**
 * The stored fonts the package names, or a 400 listing every family whose id is unknown or
 * expired, each at `where(family)` (`fonts.<family>` for a package as given, `design` for an
 * invoice's stored design).
 */
export async function loadPackageFonts(
  store: FontStore | undefined,
  pkg: TemplatePackage,
  where: (family: string) => string,
): Promise<PackageFonts> {
  const named = Object.entries(pkg.fonts ?? {});
  if (named.length === 0) return {};
  const ids = named.map(([, id]) => id);
  const { fonts, unknown } = store === undefined ? { fonts: new Map<string, StoredFont>(), unknown: ids } : await loadFonts(store, ids);
  const issues: Issue[] = named
    .filter(([, id]) => unknown.includes(id))
    .map(([family, id]) => ({
      path: where(family),
      code: 'unknown_font',
      message: `the font of family "${family}" (${id}) is not a stored font (unknown, or expired ${FONT_TTL_SECONDS / 86400} days after it was last put): PUT the font file to /v1/fonts again`,
    }));
  if (issues.length > 0) throw validationFailed(issues);
  return Object.fromEntries(named.map(([family, id]) => [family, fonts.get(id)!]));
}
