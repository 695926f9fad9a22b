import * as v from 'valibot';
import { BrandFontSchema, DesignPackageSchema } from './designPackage.js';

/**
 * The designer's unsaved work, kept in the browser's local storage so that a reload (or a crash)
 * loses nothing. It never leaves the browser: only Save sends the package to the service.
 */
const DraftSchema = v.object({
  version: v.literal(1),
  /** What the draft was forked from: a built-in design's name or a stored id. */
  base: v.string(),
  package: DesignPackageSchema,
  invoice: v.string(),
  locale: v.string(),
  envelope: v.optional(v.string(), ''),
  /** Brand fonts uploaded (PUT /v1/fonts) and what each is used for. */
  fonts: v.optional(v.array(BrandFontSchema), []),
  /** The id Save gave, while the package is still the saved one. */
  savedId: v.optional(v.string()),
});
export type Draft = v.InferOutput<typeof DraftSchema>;

export const DRAFT_KEY = 'invoice-pdf-studio:draft';

/** What the studio needs of window.localStorage (a double in the tests). */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The kept draft, or undefined when there is none or it is not one this page wrote (then it is dropped). */
export function loadDraft(storage: DraftStorage): Draft | undefined {
  let text: string | null;
  try {
    text = storage.getItem(DRAFT_KEY);
  } catch {
    return undefined; // storage switched off by the browser
  }
  if (text === null) return undefined;
  try {
    const parsed = v.safeParse(DraftSchema, JSON.parse(text));
    if (parsed.success) return parsed.output;
  } catch {
    // not JSON: dropped below
  }
  storage.removeItem(DRAFT_KEY);
  return undefined;
}

/** Keeps the draft; false when the browser refused (storage full or switched off): the page says so. */
export function saveDraft(storage: DraftStorage, draft: Draft): boolean {
  try {
    storage.setItem(DRAFT_KEY, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function dropDraft(storage: DraftStorage): void {
  try {
    storage.removeItem(DRAFT_KEY);
  } catch {
    // nothing kept
  }
}
