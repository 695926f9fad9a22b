import { rejected } from '../errors.js';
import type { PooledPage } from './pooledPage.js';

/**
 * Whether Chromium takes a font: the bytes loaded as a FontFace on a render page (locked down as
 * every page, lockDownPage.ts), which runs them through the OpenType Sanitizer (OTS) as every web
 * font is. A font OTS refuses would print in the fallback fonts without a word, so it is refused
 * when stored, with OTS's own reason when Chromium logs one. The FontFace is never added to the
 * document: nothing of it stays on the page. Evaluated over a DevTools session of its own
 * (detached after), as the page's JavaScript is off.
 */
export async function checkFontLoads(pooled: PooledPage, bytes: Uint8Array): Promise<void> {
  const session = await pooled.page.createCDPSession();
  const logged: string[] = [];
  try {
    session.on('Log.entryAdded', ({ entry }: { entry: { text: string } }) => {
      if (/OTS|font/i.test(entry.text)) logged.push(entry.text);
    });
    await session.send('Log.enable');
    const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
    const { result, exceptionDetails } = await session.send('Runtime.evaluate', {
      expression: `(async () => {
        const bytes = Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));
        try { const face = new FontFace('font-check', bytes); await face.load(); return 'loaded'; }
        catch (error) { return String(error); }
      })()`,
      awaitPromise: true,
      returnByValue: true,
    });
    const outcome = exceptionDetails ? String(exceptionDetails.text) : String(result.value);
    if (outcome !== 'loaded') {
      const why = (logged.length > 0 ? logged.join('; ') : outcome).replace(/\s+/g, ' ');
      throw rejected('font_invalid', `Chromium refused the font: ${why}.`, [
        { path: 'font', code: 'refused_by_chromium', message: `Chromium's font sanitiser (OTS) refused it: ${why}` },
      ]);
    }
  } finally {
    await session.detach().catch(() => undefined);
  }
}
