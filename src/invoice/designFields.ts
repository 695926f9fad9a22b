import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { ENVELOPE_NAMES } from './envelopes.js';
import { OVERRIDABLE_LABEL_KEYS } from './labelKeys.js';
import { LIMITS } from './limits.js';
import { text } from './textRules.js';

/**
 * How an invoice looks, chosen per request: the design (a folder under templates/designs/), a
 * stamp across every page, and a theme. A theme is data, never code: colours as #rrggbb, a font
 * from FONT_FAMILIES (fonts the service installs), a few choices from short lists, and label
 * overrides that print as escaped text like every other label. It reaches CSS only as values
 * rebuilt from these checked forms (src/render/themeCss.ts).
 */
export const DESIGNS = ['classic', 'modern', 'compact'] as const;
export type DesignName = (typeof DESIGNS)[number];
export const DEFAULT_DESIGN: DesignName = 'classic';

export const STAMPS = ['draft', 'paid', 'copy', 'void'] as const;

/** Installed by the Dockerfile (fonts-noto-core, fonts-dejavu-core); each covers Latin, Greek and Cyrillic. */
export const FONT_FAMILIES = ['Noto Sans', 'Noto Serif', 'Noto Serif Display', 'DejaVu Sans', 'DejaVu Serif'] as const;

export const THEME_COLOURS = ['accent', 'ink', 'muted', 'rule', 'tint'] as const;
export const THEME_BLOCKS = ['logo', 'line_numbers', 'item_codes', 'notes'] as const;
const LOGO_PLACEMENTS = ['start', 'center', 'end'] as const;
const DENSITIES = ['comfortable', 'normal', 'compact'] as const;

/** A theme's canonical JSON may not be longer (the stored form and the id's input). */
export const THEME_MAX_BYTES = 8 * 1024;
const THEME_REF = /^sha256:[0-9a-f]{64}$/;
/** A stored design's id, as PUT /v1/templates answers it (src/templates/templatePackage.ts). */
export const TEMPLATE_REF = /^sha256:[0-9a-f]{64}$/;
/** A font put to PUT /v1/fonts (src/fonts/): the same form of id as a theme's. */
export const FONT_REF = THEME_REF;
/** The theme fields that may name a stored font, resolved before payment (src/themes/storedThemes.ts). */
export const THEME_FONT_FIELDS = ['font', 'font_bold', 'heading_font', 'heading_font_bold'] as const;
export type ThemeFontField = (typeof THEME_FONT_FIELDS)[number];

const FONT_ID_MESSAGE = 'must be a font id: "sha256:" and 64 lower-case hex digits, as PUT /v1/fonts answers';

const fontIdOnly = (what: string) =>
  v.optional(v.pipe(v.string(FONT_ID_MESSAGE), v.regex(FONT_REF, FONT_ID_MESSAGE), v.description(what)));

const fontChoice = (what: string) =>
  v.optional(
    v.pipe(
      // A union (not a check) so that OpenAPI lists the installed families.
      v.union(
        [v.picklist(FONT_FAMILIES), v.pipe(v.string(), v.regex(FONT_REF))],
        `must be one of ${FONT_FAMILIES.join(', ')}, or a font id "sha256:…" as PUT /v1/fonts answers`,
      ),
      v.description(what),
    ),
  );

/**
 * Contrast limits against the white page (WCAG 2 contrast ratio), so that no theme can make what
 * an invoice must show unreadable: text colours dark enough to read on white, the panel tint light
 * enough for text on it. (accent_color, older than themes, is not limited; the designs put text on
 * an accent in a colour chosen for contrast, src/render/lookView.ts.)
 */
const CONTRAST: Record<string, { min?: number; max?: number }> = {
  accent: { min: 3 },
  ink: { min: 4.5 },
  muted: { min: 3 },
  tint: { max: 1.25 },
  rule: {},
};

const HEX = /^#[0-9A-Fa-f]{6}$/;

const colour = (name: keyof typeof CONTRAST, what: string) => {
  const { min, max } = CONTRAST[name]!;
  return v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(HEX, 'must be a colour written #rrggbb'),
      v.check(
        (hex) => min === undefined || !HEX.test(hex) || contrastWithWhite(hex) >= min,
        `must be dark enough to read on white (contrast at least ${min}:1)`,
      ),
      v.check(
        (hex) => max === undefined || !HEX.test(hex) || contrastWithWhite(hex) <= max,
        `must be light enough for text on it (contrast with white at most ${max}:1)`,
      ),
      v.description(what),
    ),
  );
};

/** The WCAG 2 contrast ratio of #rrggbb against white, 1 (white) to 21 (black). */
export function contrastWithWhite(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

const ThemeLabelsSchema = v.strictObject(
  Object.fromEntries(
    OVERRIDABLE_LABEL_KEYS.map((key) => [
      key,
      v.optional(text({ min: 1, max: LIMITS.label, description: `Replaces the "${key}" label.` })),
    ]),
  ),
  'is not a label key (see templates/locales/en.json)',
);

const ThemeFieldsSchema = v.strictObject(
  {
    colors: v.optional(
      v.strictObject(
        {
          accent: colour(
            'accent',
            'Headings, rules and the total band; the same as accent_color. Contrast with white at least 3:1.',
          ),
          ink: colour('ink', 'Body text. Contrast with white at least 4.5:1.'),
          muted: colour('muted', 'Secondary text (labels, contact lines). Contrast with white at least 3:1.'),
          rule: colour('rule', 'Hairlines between rows.'),
          tint: colour(
            'tint',
            'Panels behind the details, the total and the payment block. Contrast with white at most 1.25:1.',
          ),
        },
        'is not a theme colour (accent, ink, muted, rule, tint)',
      ),
    ),
    font: fontChoice(
      'Typeface of the text: an installed family, or the id of a font put to /v1/fonts (characters it lacks are drawn in the service fonts; amounts keep Noto Sans for their digits and currency signs).',
    ),
    font_bold: fontIdOnly(
      'The bold face of the brand font named by font (a font id); without it Chromium emboldens the regular face.',
    ),
    heading_font: fontChoice(
      'Typeface of the title and the section labels: an installed family or a font id (default: the text font).',
    ),
    heading_font_bold: fontIdOnly('The bold face of the brand font named by heading_font (a font id).'),
    logo_placement: v.optional(v.picklist(LOGO_PLACEMENTS, `must be one of ${LOGO_PLACEMENTS.join(', ')}`)),
    density: v.optional(v.picklist(DENSITIES, `must be one of ${DENSITIES.join(', ')}`)),
    show: v.optional(
      v.strictObject(
        Object.fromEntries(
          THEME_BLOCKS.map((block) => [block, v.optional(v.boolean('must be true or false'))]),
        ) as Record<(typeof THEME_BLOCKS)[number], v.OptionalSchema<v.BooleanSchema<string>, undefined>>,
        `is not an optional block (${THEME_BLOCKS.join(', ')})`,
      ),
    ),
    labels: v.optional(ThemeLabelsSchema),
  },
  'is not a theme property (colors, font, font_bold, heading_font, heading_font_bold, logo_placement, density, show, labels)',
);

export const ThemeSchema = v.pipe(
  ThemeFieldsSchema,
  v.forward(
    v.check(
      (theme) => theme.font_bold === undefined || FONT_REF.test(theme.font ?? ''),
      'needs font to be a font id too: it is the bold face of that brand font',
    ),
    ['font_bold'],
  ),
  v.forward(
    v.check(
      (theme) => theme.heading_font_bold === undefined || FONT_REF.test(theme.heading_font ?? ''),
      'needs heading_font to be a font id too: it is the bold face of that brand font',
    ),
    ['heading_font_bold'],
  ),
  v.check(
    (theme) => Buffer.byteLength(canonicalJson(theme)) <= THEME_MAX_BYTES,
    `must be at most ${THEME_MAX_BYTES / 1024} KiB as JSON`,
  ),
  v.description(
    `A look as data: colors (#rrggbb: accent, ink, muted, rule, tint), font and heading_font (${FONT_FAMILIES.join(', ')}, or a font id from PUT /v1/fonts, with font_bold and heading_font_bold), logo_placement (start, center, end), density (comfortable, normal, compact), show (logo, line_numbers, item_codes, notes: true/false) and labels (as the invoice's labels; the invoice's own win). At most ${THEME_MAX_BYTES / 1024} KiB.`,
  ),
);

export type Theme = v.InferOutput<typeof ThemeSchema>;

const ThemeRefSchema = v.pipe(
  v.string('must be a theme object or a theme id'),
  v.regex(THEME_REF, 'must be a theme id: "sha256:" and 64 lower-case hex digits, as PUT /v1/themes answers'),
);

/** The fields of the invoice schema that choose the look; spread into its object. */
export const DESIGN_FIELDS = {
  design: v.optional(
    v.pipe(
      v.union(
        [v.picklist(DESIGNS), v.pipe(v.string(), v.regex(TEMPLATE_REF))],
        `must be one of ${DESIGNS.join(', ')}, or a stored design's id "sha256:…" (PUT /v1/templates)`,
      ),
      v.description(
        `The design: ${DESIGNS.join(', ')} (default ${DEFAULT_DESIGN}), or the id "sha256:…" PUT /v1/templates answered for a design of your own.`,
      ),
    ),
  ),
  envelope: v.optional(
    v.pipe(
      v.picklist(ENVELOPE_NAMES, `must be one of ${ENVELOPE_NAMES.join(', ')}`),
      v.description(
        `Prints the buyer's postal address and a one-line return address of the seller where a window envelope shows them, with fold marks: ${ENVELOPE_NAMES.join(', ')} (docs/designs.md). The paper follows the envelope (us-10: US Letter, the others A4).`,
      ),
    ),
  ),
  stamp: v.optional(
    v.pipe(
      v.picklist(STAMPS, `must be one of ${STAMPS.join(', ')}`),
      v.description('A stamp across every page, in the invoice language: draft, paid, copy or void.'),
    ),
  ),
  theme: v.optional(
    v.pipe(
      // A union rather than v.lazy: it converts to JSON Schema (OpenAPI), and for input of the
      // right type valibot reports that option's own issues, nested paths included.
      v.union([ThemeRefSchema, ThemeSchema], 'must be a theme object or a theme id "sha256:…"'),
      v.description('A theme object (see PUT /v1/themes), or the id "sha256:…" PUT /v1/themes answered for one.'),
    ),
  ),
};

/** Keys sorted at every level, no white space: the same theme always has the same text and id. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, entry]) => entry !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export function themeId(theme: Theme): string {
  return `sha256:${createHash('sha256').update(canonicalJson(theme)).digest('hex')}`;
}
