import { DEFAULT_DESIGN, DESIGNS, THEME_COLOURS, type DesignName, type Theme } from '../invoice/designFields.js';
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
  font: string | null;
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
      theme && (theme.colors || theme.font)
        ? { colors: normalisedColours(theme.colors ?? {}), font: theme.font ?? null }
        : null,
  };
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
