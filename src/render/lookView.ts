import { brandFamily, type FontFaceSource } from '../fonts/fontFace.js';
import {
  DEFAULT_DESIGN,
  DESIGNS,
  FONT_REF,
  THEME_COLOURS,
  type DesignName,
  type Theme,
  type ThemeFontField,
} from '../invoice/designFields.js';
import type { LabelCatalog } from '../invoice/labelKeys.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';

/**
 * The part of the view model that chooses the look: the design, the stamp, the theme's colours
 * and font (for themeCss.ts), and the classes on <body> that select the theme's density and logo
 * placement. Every value here comes from a closed list or is a checked #rrggbb, so none of it is
 * request text (the stamp's word is a label and prints escaped, like every label).
 */
export interface LookView {
  design: DesignName;
  /** The stamp across every page ("DRAFT", "BEZAHLT"…), or null. */
  stamp: { name: string; text: string } | null;
  /** Classes of <body>: design-<name>, density-<d>, logo-<placement>; from closed lists only. */
  pageClass: string;
  /** The line number column (a theme may leave it out). */
  lineNumbers: boolean;
  /** The theme's colours (#rrggbb, lower case) and font, or null: the design's own. */
  style: ThemeStyle | null;
}

export interface ThemeStyle {
  colors: Partial<Record<(typeof THEME_COLOURS)[number], string>>;
  /** The CSS family of the text and of the headings: an installed one, or brandFamily(id) of a stored font. */
  font: string | null;
  headingFont: string | null;
  /** The @font-face rules the stored fonts need (src/fonts/fontFace.ts). */
  faces: FontFaceSource[];
}

/** The resolved theme, or a clear error when a reference never went through resolveThemeReference. */
export function themeOf(prepared: PreparedInvoice): Theme | undefined {
  if (typeof prepared.invoice.theme === 'string' && prepared.theme === undefined) {
    // A route that accepts invoices must resolve references before any payment (src/themes/storedThemes.ts).
    throw new Error(`theme ${prepared.invoice.theme} was not resolved before rendering`);
  }
  return prepared.theme;
}

export function lookView(prepared: PreparedInvoice, labels: LabelCatalog): LookView {
  const { invoice } = prepared;
  const theme = themeOf(prepared);
  // A stored design (a customer's package, "sha256:…") prints over classic's stylesheets.
  const design = invoice.design !== undefined && isBuiltinDesign(invoice.design) ? invoice.design : DEFAULT_DESIGN;
  const classes = [`design-${design}`];
  if (theme?.density && theme.density !== 'normal') classes.push(`density-${theme.density}`);
  if (theme?.logo_placement && theme.logo_placement !== 'start') classes.push(`logo-${theme.logo_placement}`);
  return {
    design,
    stamp: invoice.stamp ? { name: invoice.stamp, text: labels[`stamp_${invoice.stamp}`] } : null,
    pageClass: classes.join(' '),
    lineNumbers: theme?.show?.line_numbers !== false,
    style:
      theme && (theme.colors || theme.font || theme.heading_font)
        ? { colors: normalisedColours(theme.colors ?? {}), ...themeFonts(theme, prepared) }
        : null,
  };
}

/**
 * The theme's text and heading fonts as CSS families, and the faces of the stored ones: the font
 * named as regular serves weight 400, its _bold sibling weight 700 (without one Chromium
 * emboldens the regular). Stored fonts were looked up before payment (resolveStoredLook).
 */
function themeFonts(theme: Theme, prepared: PreparedInvoice): Pick<ThemeStyle, 'font' | 'headingFont' | 'faces'> {
  const faces: FontFaceSource[] = [];
  const familyOf = (field: 'font' | 'heading_font', boldField: 'font_bold' | 'heading_font_bold') => {
    const choice = theme[field];
    if (choice === undefined) return null;
    if (!FONT_REF.test(choice)) return choice;
    const family = brandFamily(choice);
    const faceOf = (name: ThemeFontField, weight: number) => {
      const font = prepared.fonts?.[name];
      if (font === undefined) throw new Error(`theme.${name} was not resolved before rendering`);
      if (!faces.some((face) => face.family === family && face.weight === weight))
        faces.push({ family, font, weight, style: 'normal' });
    };
    faceOf(field, 400);
    if (theme[boldField] !== undefined) faceOf(boldField, 700);
    return family;
  };
  return { font: familyOf('font', 'font_bold'), headingFont: familyOf('heading_font', 'heading_font_bold'), faces };
}

/** Rebuilt from the parsed number, so only #rrggbb can ever reach the style sheet. */
export function hexColour(colour: string): string {
  return `#${Number.parseInt(colour.slice(1), 16).toString(16).padStart(6, '0')}`;
}

function normalisedColours(colors: NonNullable<Theme['colors']>): ThemeStyle['colors'] {
  return Object.fromEntries(
    THEME_COLOURS.filter((name) => colors[name] !== undefined).map((name) => [name, hexColour(colors[name]!)]),
  );
}

const isBuiltinDesign = (name: string): name is DesignName => (DESIGNS as readonly string[]).includes(name);
