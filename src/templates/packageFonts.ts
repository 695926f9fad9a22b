import { validationFailed, type Issue } from '../errors.js';
import type { FontFaceSource, StoredFont } from '../fonts/fontFace.js';
import { FONT_TTL_SECONDS, loadFonts, type FontStore } from '../themes/fontStore.js';
import type { TemplatePackage } from '../invoice/templatePackage.js';

/**
 * A package's fonts (its `fonts` field: { "Brand Sans": "sha256:…" }, ids from PUT /v1/fonts): the
 * stored fonts by the family names its CSS uses. Looked up when the package is stored (PUT, so a
 * package never names a font nobody uploaded) and again before every print with it, before any
 * payment: a font expires on its own clock, and an expired one is a 400, never a render in a
 * fallback font the buyer did not choose.
 */
export type PackageFonts = Record<string, StoredFont>;

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

/**
 * The @font-face sources of a package's fonts (fontFace.ts writes the rules): each under the
 * family name the package gives it, with the font's own weight and style. A package that names
 * fonts must have had them looked up (loadPackageFonts) before it prints.
 */
export function packageFontFaces(pkg: TemplatePackage, fonts: PackageFonts | undefined): FontFaceSource[] {
  return Object.keys(pkg.fonts ?? {}).map((family) => {
    const font = fonts?.[family];
    if (font === undefined) throw new Error(`the design's font "${family}" was not looked up before rendering`);
    return { family, font };
  });
}
