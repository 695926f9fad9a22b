import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';

/**
 * The preview PDF's pages drawn as PNG images in the browser by pdf.js (bundled with its worker,
 * served by the service): the designer sees the very PDF the service printed, and the service
 * spends no CPU on rasterising. One worker serves every preview.
 */
let worker: Worker | undefined;

export interface PageImage {
  blob: Blob;
  /** The page's size in CSS pixels at 100 % (1 PDF point = 1 px: A4 is 595 × 842). */
  width: number;
  height: number;
}

export async function pdfPageImages(pdf: Uint8Array, signal: AbortSignal): Promise<PageImage[]> {
  if (!GlobalWorkerOptions.workerPort) {
    worker = new Worker('/studio/pdf.worker.js', { type: 'module' });
    GlobalWorkerOptions.workerPort = worker;
  }
  // The page's policy allows no eval and no WebAssembly: pdf.js is told so, and uses its plain code.
  const task = getDocument({ data: pdf, isEvalSupported: false, useWasm: false, enableXfa: false, stopAtErrors: true });
  const stop = () => void task.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const pdfDocument = await task.promise;
    // Sharp on a high-density screen or when zoomed (200 %), bounded so a long invoice stays light.
    const density = Math.min(Math.max(globalThis.devicePixelRatio || 1, 1), 3);
    const images: PageImage[] = [];
    for (let number = 1; number <= pdfDocument.numPages; number += 1) {
      signal.throwIfAborted();
      const page = await pdfDocument.getPage(number);
      const size = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: density });
      const canvas = document.createElement('canvas');
      canvas.width = Math.ceil(viewport.width);
      canvas.height = Math.ceil(viewport.height);
      await page.render({ canvas, viewport }).promise;
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error(`page ${number} could not be drawn`);
      images.push({ blob, width: Math.round(size.width), height: Math.round(size.height) });
      page.cleanup();
    }
    return images;
  } finally {
    signal.removeEventListener('abort', stop);
    await task.destroy();
  }
}
