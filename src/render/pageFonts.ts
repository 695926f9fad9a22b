import type { CDPSession } from 'puppeteer-core';
import type { StoredFace } from '../fonts/fontFace.js';
import { registeredFont } from '../fonts/servedFonts.js';

/**
 * The stored fonts a render page holds. A font declared by the printed document's own @font-face
 * rule belongs to that document: every render (a new document) builds it again, and with it the
 * font's shaping tables and caches, which made a render in a stored font cost 1.2–1.35× one in
 * the installed font even once the bytes came from Chromium's cache (bench/fonts.ts). A FontFace
 * added to document.fonts from DevTools instead stays when Page.setDocumentContent writes the next
 * document (it reopens the same document), warm. So the renderer takes the rules out of the page
 * (takeStoredFaces, src/fonts/fontFace.ts) and keeps on the page exactly the faces it declared:
 * those of the previous render that this one does not declare are deleted (a render never prints
 * with a font it did not name), those missing are added and loaded before the document is
 * written. When the faces are those of the previous render, nothing is sent at all.
 */
export class PageFonts {
  /** "family|weight|style" → the URL of the font in that slot, as on the page now. */
  #slots = new Map<string, string>();
  /** Set when a change failed half-way: the next change starts from no face at all. */
  #unknown = false;

  async hold(session: CDPSession, faces: readonly StoredFace[]): Promise<void> {
    const wanted = new Map(faces.map((face) => [slotOf(face), face]));
    const remove = [...this.#slots].filter(([slot, url]) => wanted.get(slot)?.url !== url).map(([slot]) => slot);
    const add = [...wanted].filter(([slot, face]) => this.#unknown || this.#slots.get(slot) !== face.url);
    if (!this.#unknown && remove.length === 0 && add.length === 0) return;
    const clear = this.#unknown;
    this.#unknown = true;
    const failed = await changeFaces(session, {
      clear,
      remove: remove.map(splitSlot),
      add: add.map(([, face]) => ({ ...face, base64: registeredFont(face.url)?.base64 ?? '' })),
    });
    if (failed !== '') throw new Error(`stored fonts did not load: ${failed}`);
    this.#slots = new Map([...wanted].map(([slot, face]) => [slot, face.url]));
    this.#unknown = false;
  }
}

const slotOf = (face: Pick<StoredFace, 'family' | 'weight' | 'style'>) => `${face.family}|${face.weight}|${face.style}`;

function splitSlot(slot: string): Pick<StoredFace, 'family' | 'weight' | 'style'> {
  const [family, weight, style] = slot.split('|') as [string, string, StoredFace['style']];
  return { family, weight: Number(weight), style };
}

/**
 * Deletes and adds FontFaces on the page (evaluated over DevTools: the page's own JavaScript stays
 * off) and waits until the added ones have loaded from their bytes, which Chromium's sanitiser
 * checks as it checks every web font. Answers the families that did not load (or whose bytes are
 * no longer registered), comma-separated. The arguments go in as JSON.
 */
async function changeFaces(
  session: CDPSession,
  change: {
    clear: boolean;
    remove: Pick<StoredFace, 'family' | 'weight' | 'style'>[];
    add: (StoredFace & { base64: string })[];
  },
): Promise<string> {
  const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
    expression: `(async (change) => {
      const unquoted = (family) => family.replace(/^"|"$/g, '');
      const fills = (face, slot) =>
        unquoted(face.family) === slot.family && Number(face.weight) === slot.weight && face.style === slot.style;
      if (change.clear) document.fonts.clear();
      for (const face of [...document.fonts])
        if (change.remove.some((slot) => fills(face, slot))) document.fonts.delete(face);
      const added = change.add.map((face) => {
        const bytes = Uint8Array.from(atob(face.base64), (char) => char.charCodeAt(0));
        const font = new FontFace(face.family, bytes, { weight: String(face.weight), style: face.style });
        document.fonts.add(font);
        return font;
      });
      await Promise.all(added.map((font) => font.load().catch(() => undefined)));
      return added.filter((font) => font.status !== 'loaded').map((font) => unquoted(font.family)).join(', ');
    })(${JSON.stringify(change)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  return exceptionDetails
    ? String(exceptionDetails.exception?.description ?? exceptionDetails.text)
    : String(result.value);
}
