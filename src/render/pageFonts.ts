import { randomBytes } from 'node:crypto';
import type { CDPSession } from 'puppeteer-core';
import { brandFamily, type StoredFace } from '../fonts/fontFace.js';
import { FONT_ORIGIN, registeredFont } from '../fonts/servedFonts.js';

/**
 * The stored fonts a render page holds. A font declared by the printed document's own @font-face
 * rule belongs to that document: every render (a new document) builds it again, and with it the
 * font's shaping tables and caches, which made a render in a stored font cost 1.2–1.35× one in
 * the installed font even with the bytes in Chromium's cache (bench/fonts.ts, measured). A
 * FontFace added to document.fonts from DevTools instead stays when Page.setDocumentContent writes
 * the next document (it reopens the same document), warm. So the renderer takes the rules out of
 * the page (takeStoredFaces, src/fonts/fontFace.ts) and the page holds the faces instead:
 *  - a face the render declares is added from its bytes (no request, so no content security
 *    policy of a design's page is in the way) and loaded before the document is written;
 *  - a held face under a family named after its font's id (brandFamily, as themes name stored
 *    fonts) stays as it is: that name can only ever mean that font, which any render may name;
 *  - any other held face the render does not declare (a design's own family name, which another
 *    design may give another font) is parked: renamed to a family of random letters that no page
 *    names, so a render never prints in a font under a name it did not declare, yet one that
 *    declares it again gets it back by a rename;
 *  - beyond HELD_MAX faces, the least recently used parked ones are deleted.
 * When the render declares what the previous one did, nothing is sent at all.
 */
export class PageFonts {
  /**
   * Held faces by faceKey, least recently used first: `active` when the last render declared it,
   * `onPage` the family it has on the page now (its own, or the one it is parked under).
   */
  #held = new Map<string, { face: StoredFace; onPage: string; active: boolean }>();
  /** Set when a change failed half-way: the next change starts from no face at all. */
  #unknown = false;
  readonly #parkPrefix = `parked${randomBytes(8).toString('hex')}`;
  #parked = 0;

  async hold(session: CDPSession, faces: readonly StoredFace[]): Promise<void> {
    if (this.#unknown) this.#held.clear();
    const wanted = new Map(faces.map((face) => [faceKey(face), face]));
    const change: FaceChange = { clear: this.#unknown, renames: [], remove: [], add: [] };
    for (const [key, held] of this.#held) {
      if (!held.active || wanted.has(key)) continue;
      held.active = false;
      if (namedById(held.face)) continue;
      const parkedAs = `${this.#parkPrefix}-${this.#parked++}`;
      change.renames.push({ ...held.face, family: held.onPage, to: parkedAs });
      held.onPage = parkedAs;
    }
    for (const [key, face] of wanted) {
      const held = this.#held.get(key) ?? { face, onPage: face.family, active: true };
      if (!this.#held.has(key)) change.add.push({ ...face, base64: registeredFont(face.url)?.base64 ?? '' });
      else if (held.onPage !== face.family) change.renames.push({ ...face, family: held.onPage, to: face.family });
      held.onPage = face.family;
      held.active = true;
      this.#held.delete(key); // to the end: most recently used
      this.#held.set(key, held);
    }
    for (const [key, held] of this.#held) {
      if (this.#held.size <= HELD_MAX) break;
      if (held.active) continue;
      change.remove.push({ ...held.face, family: held.onPage });
      this.#held.delete(key);
    }
    if (!change.clear && change.renames.length + change.remove.length + change.add.length === 0) return;
    this.#unknown = true;
    const failed = await changeFaces(session, change);
    if (failed !== '') throw new Error(`stored fonts did not load: ${failed}`);
    this.#unknown = false;
  }
}

/** Faces a page keeps at most (a brand's regular and bold in text and headings is four). */
const HELD_MAX = 12;

const namedById = (face: StoredFace) => face.family === brandFamily(face.url.slice(FONT_ORIGIN.length));

const faceKey = (face: StoredFace) => `${face.family}|${face.weight}|${face.style}|${face.url}`;

type Slot = Pick<StoredFace, 'family' | 'weight' | 'style'>;
interface FaceChange {
  clear: boolean;
  /** Faces to give another family (park or take back). */
  renames: (Slot & { to: string })[];
  remove: Slot[];
  add: (StoredFace & { base64: string })[];
}

/**
 * Renames, deletes and adds FontFaces on the page (evaluated over DevTools: the page's own
 * JavaScript stays off) and waits until the added ones have loaded from their bytes, which
 * Chromium's sanitiser checks as it checks every web font. Answers the families that did not load
 * (or whose bytes are no longer registered), comma-separated. The arguments go in as JSON.
 */
async function changeFaces(session: CDPSession, change: FaceChange): Promise<string> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: `(async (change) => {
      const unquoted = (family) => family.replace(/^"|"$/g, '');
      const find = (slot) =>
        [...document.fonts].find(
          (face) =>
            unquoted(face.family) === slot.family && Number(face.weight) === slot.weight && face.style === slot.style,
        );
      if (change.clear) document.fonts.clear();
      const renamed = change.renames.map((rename) => [find(rename), rename.to]);
      const missing = renamed.filter(([face]) => face === undefined).length;
      for (const [face, to] of renamed) if (face) face.family = to;
      for (const slot of change.remove) {
        const face = find(slot);
        if (face) document.fonts.delete(face);
      }
      const added = change.add.map((face) => {
        const bytes = Uint8Array.from(atob(face.base64), (char) => char.charCodeAt(0));
        const font = new FontFace(face.family, bytes, { weight: String(face.weight), style: face.style });
        document.fonts.add(font);
        return font;
      });
      await Promise.all(added.map((font) => font.load().catch(() => undefined)));
      const failed = added.filter((font) => font.status !== 'loaded').map((font) => unquoted(font.family));
      if (missing > 0) failed.push(missing + ' held face(s) not found');
      return failed.join(', ');
    })(${JSON.stringify(change)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  return exceptionDetails
    ? String(exceptionDetails.exception?.description ?? exceptionDetails.text)
    : String(result.value);
}
