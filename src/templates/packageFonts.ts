import { validationFailed, type Issue } from '../errors.js';
import type { StoredFont } from '../fonts/fontFace.js';
import { familyFaces } from '../render/packageFontFaces.js';
import type { PackageFonts } from '../invoice/templatePackage.js';
import { FONT_TTL_SECONDS, loadFonts, type FontStore } from '../themes/fontStore.js';
import type { TemplatePackage } from '../invoice/templatePackage.js';

/**
 * The stored fonts the package names, or a 400 listing every face whose id is unknown or expired,
 * each at `where(field)` where field is the family (`Brand Sans`, for a family of one id) or the
 * face (`Brand Sans.bold`): `fonts.<field>` for a package as given, `design` for an invoice's
 * stored design.
 */
export async function loadPackageFonts(
  store: FontStore | undefined,
  pkg: TemplatePackage,
  where: (field: string) => string,
): Promise<PackageFonts> {
  const named = Object.entries(pkg.fonts ?? {});
  if (named.length === 0) return {};
  const faces = named.flatMap(([family, value]) =>
    Object.entries(familyFaces(value))
      .filter((face): face is [string, string] => face[1] !== undefined)
      .map(([slot, id]) => ({ family, id, field: typeof value === 'string' ? family : `${family}.${slot}` })),
  );
  const ids = faces.map((face) => face.id);
  const { fonts, unknown } =
    store === undefined ? { fonts: new Map<string, StoredFont>(), unknown: ids } : await loadFonts(store, ids);
  const issues: Issue[] = faces
    .filter((face) => unknown.includes(face.id))
    .map(({ family, id, field }) => ({
      path: where(field),
      code: 'unknown_font',
      message: `the font ${field === family ? `of family "${family}"` : `"${field}"`} (${id}) is not a stored font (unknown, or expired ${FONT_TTL_SECONDS / 86400} days after it was last put): PUT the font file to /v1/fonts again`,
    }));
  if (issues.length > 0) throw validationFailed(issues);
  return Object.fromEntries(
    named.map(([family, value]) => {
      const { regular, bold } = familyFaces(value);
      return [family, { regular: fonts.get(regular)!, ...(bold === undefined ? {} : { bold: fonts.get(bold)! }) }];
    }),
  );
}
