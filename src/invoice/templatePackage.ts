import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { StoredFont } from '../fonts/fontFace.js';
import { canonicalJson, FONT_FAMILIES, FONT_REF, TEMPLATE_REF } from './designFields.js';

/**
 * A customer's design as data (docs/templates.md): the page template, the stylesheet and overrides
 * of the shared partials (templates/partials/), each Handlebars or CSS source text, plus the version
 * of the view model it was written against. What a package leaves out is built-in classic's. It is
 * never trusted: checkPackage.ts reads every file before it is stored or printed.
 */

/**
 * The version of the data a template sees (the view model, src/render/viewModel.ts). Fields are only
 * ever added within a version, so a stored template keeps compiling (strict mode fails on a missing
 * field, never on an extra one); removing or renaming one would be version 2, with version 1 kept.
 */
const DATA_VERSIONS = [1] as const;
export const DATA_VERSION = 1;

/** Size limits of a package's files and of the whole (its canonical JSON, what is stored). */
const TEMPLATE_LIMITS = {
  htmlBytes: 64 * 1024,
  cssBytes: 64 * 1024,
  partialBytes: 32 * 1024,
  partials: 32,
  fonts: 8,
  packageBytes: 256 * 1024,
} as const;

export const isTemplateRef = (value: unknown): value is string => typeof value === 'string' && TEMPLATE_REF.test(value);

const sourceText = (maxBytes: number, what: string) =>
  v.pipe(
    v.string('must be a string'),
    v.check((text) => Buffer.byteLength(text) <= maxBytes, `must be at most ${maxBytes / 1024} KiB`),
    v.description(what),
  );

const PartialNameSchema = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9-]{0,39}$/, 'a partial name is lower-case letters, digits and dashes'),
);

/**
 * A family name a package gives a stored font: written into a quoted CSS string by the service
 * (fontFace.ts SAFE_FAMILY: nothing to escape). Not an installed family (the service's fallback
 * fonts keep their meaning), not a generic keyword, not brand-… (the names of themes' fonts).
 */
const RESERVED_FAMILIES = new Set([
  ...FONT_FAMILIES.map((family) => family.toLowerCase()),
  ...['serif', 'sans-serif', 'monospace', 'cursive', 'fantasy', 'system-ui', 'math', 'emoji', 'fangsong'],
  ...['ui-serif', 'ui-sans-serif', 'ui-monospace', 'ui-rounded', 'inherit', 'initial', 'unset', 'revert', 'default'],
]);
const FamilyNameSchema = v.pipe(
  v.string(),
  v.regex(
    /^[A-Za-z][A-Za-z0-9 _-]{0,62}$/,
    'a font family name is a letter, then letters, digits, spaces, _ or - (at most 63)',
  ),
  v.check(
    (name) => !RESERVED_FAMILIES.has(name.toLowerCase()),
    'is an installed or generic family name: choose a name of your own',
  ),
  v.check((name) => !/^brand-/i.test(name), "brand-… names are the service's (a theme's fonts): choose another"),
);
const FONT_ID_MESSAGE = 'must be a font id: "sha256:" and 64 lower-case hex digits, as PUT /v1/fonts answers';
const FontIdSchema = v.pipe(v.string(FONT_ID_MESSAGE), v.regex(FONT_REF, FONT_ID_MESSAGE));

/**
 * A family's stored faces: one font id (the face at its own weight and style), or a regular and a
 * bold face, so that bold text (totals, headings, <strong>) prints in the bold cut, not an
 * emboldened regular one.
 */
const PackageFamilySchema = v.union(
  [
    FontIdSchema,
    v.strictObject(
      { regular: FontIdSchema, bold: v.optional(FontIdSchema) },
      'is not a face of a family (regular, bold)',
    ),
  ],
  'must be a font id "sha256:…", or { "regular": "sha256:…", "bold": "sha256:…" }',
);
export type PackageFamily = v.InferOutput<typeof PackageFamilySchema>;

/**
 * A package's fonts looked up (src/templates/packageFonts.ts): the stored faces by the family names
 * its CSS uses. Looked up when the package is stored (PUT, so a package never names a font nobody
 * uploaded) and again before every print with it, before any payment: a font expires on its own
 * clock, and an expired one is a 400, never a render in a fallback font the buyer did not choose.
 */
export type PackageFonts = Record<string, { regular: StoredFont; bold?: StoredFont | undefined }>;

export const TemplatePackageSchema = v.pipe(
  v.strictObject(
    {
      data_version: v.optional(
        v.pipe(
          v.picklist(DATA_VERSIONS, `must be one of ${DATA_VERSIONS.join(', ')}`),
          v.description(`Data version (default ${DATA_VERSION}).`),
        ),
      ),
      html: v.optional(sourceText(TEMPLATE_LIMITS.htmlBytes, 'Page template (Handlebars).')),
      css: v.optional(sourceText(TEMPLATE_LIMITS.cssBytes, 'Stylesheet.')),
      partials: v.optional(
        v.pipe(
          v.record(PartialNameSchema, sourceText(TEMPLATE_LIMITS.partialBytes, 'Handlebars source.')),
          v.check(
            (partials) => Object.keys(partials).length <= TEMPLATE_LIMITS.partials,
            `must have at most ${TEMPLATE_LIMITS.partials} partials`,
          ),
          v.description('Partials by name.'),
        ),
      ),
      fonts: v.optional(
        v.pipe(
          v.record(FamilyNameSchema, PackageFamilySchema),
          v.check(
            (fonts) => Object.keys(fonts).length <= TEMPLATE_LIMITS.fonts,
            `must name at most ${TEMPLATE_LIMITS.fonts} fonts`,
          ),
          v.description(
            'Stored fonts by the family name the CSS uses: { "Brand Sans": "sha256:…" }, or a regular and a bold face { "Brand Sans": { "regular": "sha256:…", "bold": "sha256:…" } } (ids from PUT /v1/fonts); the service writes their @font-face rules.',
          ),
        ),
      ),
    },
    'is not a package field (data_version, html, css, partials, fonts)',
  ),
  v.check(
    (value) => Buffer.byteLength(canonicalJson(value)) <= TEMPLATE_LIMITS.packageBytes,
    `must be at most ${TEMPLATE_LIMITS.packageBytes / 1024} KiB as JSON`,
  ),
  v.description('A design package; what it leaves out is built-in classic.'),
);

export type TemplatePackage = v.InferOutput<typeof TemplatePackageSchema>;

/** The package as stored: data_version always written, so the id names the version too. */
export function storedForm(pkg: TemplatePackage): TemplatePackage {
  return { ...pkg, data_version: pkg.data_version ?? DATA_VERSION };
}

/** "sha256:" and the SHA-256 of the stored form's canonical JSON: the same package, the same id. */
export function templateId(pkg: TemplatePackage): string {
  return `sha256:${createHash('sha256')
    .update(canonicalJson(storedForm(pkg)))
    .digest('hex')}`;
}
