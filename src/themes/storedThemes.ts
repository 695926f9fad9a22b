import * as v from 'valibot';
import { AppError, validationFailed } from '../errors.js';
import { loadFonts, type FontStore } from './fontStore.js';
import {
  canonicalJson,
  FONT_REF,
  THEME_FONT_FIELDS,
  ThemeSchema,
  themeId,
  type Theme,
} from '../invoice/designFields.js';
import { parseOrReject } from '../invoice/issues.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { THEME_TTL_SECONDS, type ThemeStore } from './themeStore.js';

/** What PUT /v1/themes answers. */
export interface StoredTheme {
  id: string;
  expires_in_seconds: number;
}

/** Validates a theme (400 with every issue and its path), stores it and answers its id. */
export function parseTheme(body: unknown): Theme {
  return parseOrReject(ThemeSchema, body);
}

export async function putTheme(store: ThemeStore, theme: Theme): Promise<StoredTheme> {
  const id = themeId(theme);
  await withStore(() => store.put(id, canonicalJson(theme)));
  return { id, expires_in_seconds: THEME_TTL_SECONDS };
}

/** Whether the invoice names a stored theme ("theme": "sha256:…") rather than giving one inline or none. */
const namesStoredTheme = (prepared: PreparedInvoice): boolean => typeof prepared.invoice.theme === 'string';

/** Whether the invoice's theme needs a look-up before it prints: a stored theme, or a stored font in an inline one. */
export const namesStoredLook = (prepared: PreparedInvoice): boolean =>
  namesStoredTheme(prepared) || fontIdsOf(prepared.theme).length > 0;

function fontIdsOf(theme: Theme | undefined): { field: (typeof THEME_FONT_FIELDS)[number]; id: string }[] {
  if (theme === undefined) return [];
  return THEME_FONT_FIELDS.flatMap((field) => {
    const id = theme[field];
    return id !== undefined && FONT_REF.test(id) ? [{ field, id }] : [];
  });
}

/**
 * The stored theme (resolveThemeReference) and then the stored fonts its font fields name, put on
 * the prepared invoice as `fonts`. Before any payment: an unknown or expired font id is a 400 at
 * `theme.<field>` (code unknown_font), never charged.
 */
export async function resolveStoredLook(
  themes: ThemeStore | undefined,
  fonts: FontStore | undefined,
  prepared: PreparedInvoice,
): Promise<PreparedInvoice> {
  const withTheme = await resolveThemeReference(themes, prepared);
  const named = fontIdsOf(withTheme.theme);
  if (named.length === 0) return withTheme;
  const { fonts: found, unknown } =
    fonts === undefined
      ? { fonts: new Map(), unknown: named.map(({ id }) => id) }
      : await loadFonts(
          fonts,
          named.map(({ id }) => id),
        );
  if (unknown.length > 0) {
    throw validationFailed(
      named
        .filter(({ id }) => unknown.includes(id))
        .map(({ field }) => ({
          path: `theme.${field}`,
          code: 'unknown_font',
          message: `is not a stored font (unknown, or expired ${THEME_TTL_SECONDS / 86400} days after it was last put): PUT the font file to /v1/fonts again`,
        })),
    );
  }
  return { ...withTheme, fonts: Object.fromEntries(named.map(({ field, id }) => [field, found.get(id)!])) };
}

/**
 * For an invoice whose theme is a reference ("sha256:…"): looks it up and puts the stored theme on
 * the prepared invoice. Runs after validation and before any payment, so an unknown id is a 400
 * (path "theme") that is never charged. Invoices with an inline theme or none pass untouched.
 */
export async function resolveThemeReference(
  store: ThemeStore | undefined,
  prepared: PreparedInvoice,
): Promise<PreparedInvoice> {
  const reference = prepared.invoice.theme;
  if (typeof reference !== 'string') return prepared;
  const stored = store === undefined ? undefined : await withStore(() => store.get(reference));
  if (stored === undefined) {
    throw validationFailed([
      {
        path: 'theme',
        code: 'unknown_theme',
        message: `is not a stored theme (unknown, or expired ${THEME_TTL_SECONDS / 86400} days after it was last put): PUT the theme to /v1/themes again`,
      },
    ]);
  }
  // Our own canonical JSON of a theme that passed ThemeSchema; checked again all the same.
  return { ...prepared, theme: v.parse(ThemeSchema, JSON.parse(stored)) };
}

async function withStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new AppError('theme_store_unavailable', 'The theme store is unreachable; try again shortly.', {
      cause: error,
    });
  }
}
