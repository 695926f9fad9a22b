import * as v from 'valibot';

/**
 * The template package the studio edits and the answers it reads (docs/templates.md), as valibot
 * schemas: an answer that is not what the contract says is a clear failure, never a half-filled page.
 */
const Sources = v.record(v.string(), v.string());
/** A family's stored faces: one font id, or { regular, bold } (fonts by id, docs/templates.md). */
const Fonts = v.record(
  v.string(),
  v.union([v.string(), v.object({ regular: v.string(), bold: v.optional(v.string()) })]),
);

export const DesignPackageSchema = v.object({
  data_version: v.optional(v.number()),
  html: v.string(),
  css: v.string(),
  partials: Sources,
  /** Stored fonts by the family name the CSS uses (fonts by id, docs/templates.md); kept as they are. */
  fonts: v.optional(Fonts),
});
export type DesignPackage = v.InferOutput<typeof DesignPackageSchema>;

/** GET /v1/templates/<name>: a complete package (every partial the design uses). */
export const BuiltInDesignSchema = v.object({ ...DesignPackageSchema.entries, name: v.string() });

/** GET /v1/templates/sha256:…: html, css and partials may be absent (the built-in classic's then). */
export const StoredDesignSchema = v.object({
  data_version: v.optional(v.number()),
  html: v.optional(v.string()),
  css: v.optional(v.string()),
  partials: v.optional(Sources),
  fonts: v.optional(Fonts),
});

export const ReferenceInvoicesSchema = v.array(
  v.object({ id: v.string(), title: v.string(), invoice: v.record(v.string(), v.unknown()) }),
);
export type ReferenceInvoice = v.InferOutput<typeof ReferenceInvoicesSchema>[number];

export const SavedSchema = v.object({ id: v.string(), expires_in_seconds: v.optional(v.number()) });

export const UploadedFontSchema = v.object({
  id: v.string(),
  family: v.string(),
  style: v.optional(v.string()),
  weight: v.optional(v.number()),
});

/** The theme fields a stored font can fill (PUT /v1/fonts): text, bold text, headings, bold headings. */
export const FONT_USES = ['font', 'font_bold', 'heading_font', 'heading_font_bold'] as const;
export type FontUse = (typeof FONT_USES)[number];

export const BrandFontSchema = v.object({ ...UploadedFontSchema.entries, use: v.picklist(FONT_USES) });
export type BrandFont = v.InferOutput<typeof BrandFontSchema>;

/** A bold face is the bold of the theme's brand font: the service refuses one without it (docs/designs.md). */
const REGULAR_OF: Partial<Record<FontUse, FontUse>> = { font_bold: 'font', heading_font_bold: 'heading_font' };

/** The use a font takes effect in: a bold face only while a font is used for its regular face. */
export function fontApplies(font: BrandFont, fonts: readonly BrandFont[]): boolean {
  const regular = REGULAR_OF[font.use];
  return regular === undefined || fonts.some((other) => other.use === regular);
}

export const DESIGN_ID = /^sha256:[0-9a-f]{64}$/;

/**
 * A stored package as the editors show it: what it leaves out is the built-in classic's (the
 * service renders it so), written out so that every file can be edited.
 */
export function completePackage(
  stored: v.InferOutput<typeof StoredDesignSchema>,
  classic: DesignPackage,
): DesignPackage {
  return {
    ...(stored.data_version !== undefined ? { data_version: stored.data_version } : {}),
    html: stored.html ?? classic.html,
    css: stored.css ?? classic.css,
    partials: { ...classic.partials, ...stored.partials },
    ...(stored.fonts !== undefined ? { fonts: stored.fonts } : {}),
  };
}

/**
 * The invoice the preview prints (and the one the ready request buys): a reference invoice in the
 * picked language and envelope window, its theme naming the brand fonts by id (a bold face without
 * its regular face is left out, as the service would refuse it). A theme given by a stored id (a
 * string) is left as it is: its fonts are its own.
 */
export function previewInvoice(
  invoice: Record<string, unknown>,
  choice: { locale: string; envelope: string; fonts: readonly BrandFont[] },
): Record<string, unknown> {
  const applied = choice.fonts.filter((font) => fontApplies(font, choice.fonts));
  const fonts = Object.fromEntries(applied.map((font) => [font.use, font.id]));
  const theme = invoice.theme;
  const themed =
    applied.length && (theme === undefined || (typeof theme === 'object' && theme !== null))
      ? { theme: { ...(theme as Record<string, unknown> | undefined), ...fonts } }
      : {};
  return {
    ...invoice,
    ...themed,
    ...(choice.locale ? { locale: choice.locale } : {}),
    ...(choice.envelope ? { envelope: choice.envelope } : {}),
  };
}

/** The body of POST /v1/invoice.pdf that buys `invoice` in the saved design. */
export const invoiceInDesign = (invoice: Record<string, unknown>, id: string) => ({ ...invoice, design: id });

/** The ready commands beside the JSON: the 402 challenge with curl, then paying with `npm run buy`. */
export function buyCommands(origin: string): string {
  const quoted = `'${origin.replace(/'/g, `'\\''`)}'`;
  return [
    '# Save the JSON above as invoice.json. Unpaid, the service answers 402 with its x402 offer:',
    `curl -i -X POST ${quoted}/v1/invoice.pdf -H 'Content-Type: application/json' --data-binary @invoice.json`,
    '# Pay with a stock x402 client (@x402/fetch), from a clone of the service repository:',
    `SERVICE_URL=${quoted} BUYER_PRIVATE_KEY=0x… npm run buy -- invoice.json invoice.pdf`,
  ].join('\n');
}
