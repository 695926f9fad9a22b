import { AppError } from '../errors.js';
import { createMemoryThemeStore, createRedisThemeStore, THEME_TTL_SECONDS, type ThemeStore } from './themeStore.js';
import type { StoredFont } from '../fonts/fontFace.js';

/**
 * Where fonts put by PUT /v1/fonts live, keyed by their id (the SHA-256 of the file): the same
 * key-value store as themes (Redis when REDIS_URL is set, else memory), under its own key prefix,
 * with the same 30-day expiry renewed by each put. The memory store keeps fewer entries than the
 * theme store's (a font is up to FONT_MAX_BYTES, a theme 8 KiB). The bytes are kept to be embedded
 * in PDFs; no route ever serves them back.
 */
export interface FontStore {
  put(font: StoredFont): Promise<void>;
  /** The font, or undefined for an unknown or expired id. */
  get(id: string): Promise<StoredFont | undefined>;
  close(): Promise<void>;
}

export const FONT_TTL_SECONDS = THEME_TTL_SECONDS;
/** 64 fonts of at most 2 MiB (the default FONT_MAX_BYTES) bound the memory store near 170 MiB of base64. */
const FONT_MEMORY_MAX = 64;

export function createMemoryFontStore(options: { maxEntries?: number } = {}): FontStore {
  return fontStoreOver(createMemoryThemeStore({ maxEntries: options.maxEntries ?? FONT_MEMORY_MAX }));
}

export function createRedisFontStore(options: { url: string }): FontStore {
  return fontStoreOver(createRedisThemeStore({ url: options.url, keyPrefix: 'invoice-pdf-x402:font:' }));
}

function fontStoreOver(strings: ThemeStore, now: () => number = Date.now): FontStore {
  // A font is used by many renders (a month's invoices) and an id's bytes never change (the id is
  // their hash): the last fonts read are kept parsed for RECENT_MS, so that a render neither
  // fetches nor parses megabytes each time. Within that time an expired font may still print.
  const recent = new Map<string, { font: StoredFont; until: number }>();
  return {
    async put(font) {
      await withStore(() => strings.put(font.facts.id, JSON.stringify(font)));
    },
    async get(id) {
      const known = recent.get(id);
      if (known !== undefined && known.until > now()) return known.font;
      const text = await withStore(() => strings.get(id));
      if (text === undefined) return undefined;
      const font = JSON.parse(text) as StoredFont;
      recent.delete(id);
      recent.set(id, { font, until: now() + RECENT_MS });
      if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
      return font;
    },
    async close() {
      recent.clear();
      await strings.close();
    },
  };
}

const RECENT_MS = 5 * 60_000;
const RECENT_MAX = 16;

async function withStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new AppError('theme_store_unavailable', 'The font store is unreachable; try again shortly.', {
      cause: error,
    });
  }
}

/**
 * The stored fonts of these ids, or the ids nobody stored (unknown or expired): what a request
 * names is looked up before payment, and each unknown id is a 400 at the field that named it.
 */
export async function loadFonts(
  store: FontStore,
  ids: readonly string[],
): Promise<{ fonts: Map<string, StoredFont>; unknown: string[] }> {
  const fonts = new Map<string, StoredFont>();
  const unknown: string[] = [];
  for (const id of new Set(ids)) {
    const font = await store.get(id);
    if (font === undefined) unknown.push(id);
    else fonts.set(id, font);
  }
  return { fonts, unknown };
}
