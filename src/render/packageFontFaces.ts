import type { FontFaceSource, StoredFont } from '../fonts/fontFace.js';
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
