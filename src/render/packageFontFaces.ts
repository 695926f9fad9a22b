import type { FontFaceSource } from '../fonts/fontFace.js';
import type { PackageFamily, PackageFonts, TemplatePackage } from '../invoice/templatePackage.js';

/** The faces a family names, by slot: one id is the regular slot (its own weight and style). */
export function familyFaces(family: PackageFamily): { regular: string; bold?: string | undefined } {
  return typeof family === 'string' ? { regular: family } : family;
}

/**
 * The @font-face sources of a package's fonts (fontFace.ts writes the rules): each under the
 * family name the package gives it. A family of one id keeps the font's own weight and style; a
 * family of a regular and a bold face serves weight 400 with the regular and 700 with the bold
 * (Chromium then picks the bold cut for bold text instead of emboldening the regular). A package
 * that names fonts must have had them looked up (loadPackageFonts) before it prints.
 */
export function packageFontFaces(pkg: TemplatePackage, fonts: PackageFonts | undefined): FontFaceSource[] {
  return Object.entries(pkg.fonts ?? {}).flatMap(([family, named]) => {
    const looked = fonts?.[family];
    if (looked === undefined) throw new Error(`the design's font "${family}" was not looked up before rendering`);
    if (typeof named === 'string') return [{ family, font: looked.regular }];
    const regular: FontFaceSource = { family, font: looked.regular, weight: 400, style: 'normal' };
    if (named.bold === undefined) return [regular];
    if (looked.bold === undefined) throw new Error(`the design's bold "${family}" was not looked up before rendering`);
    return [regular, { family, font: looked.bold, weight: 700, style: 'normal' }];
  });
}
