import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The pages of a PDF as PNG images, drawn by Poppler's pdftoppm: the page-break view of the
 * preview shows the PDF Chromium actually printed, not an imitation of its pagination.
 * Rejects when pdftoppm is missing (poppler-utils) or takes longer than `timeoutMs`.
 */
export async function pdfPageImages(pdf: Buffer, options: { dpi: number; timeoutMs: number }): Promise<Buffer[]> {
  const dir = await mkdtemp(join(tmpdir(), 'invoice-preview-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), pdf);
    await run('pdftoppm', ['-r', String(options.dpi), '-png', 'invoice.pdf', 'page'], {
      cwd: dir,
      timeout: options.timeoutMs,
    });
    // pdftoppm pads the page numbers to one width (page-01 … page-12), so names sort in page order.
    const files = (await readdir(dir)).filter((file) => file.startsWith('page-') && file.endsWith('.png')).sort();
    return await Promise.all(files.map((file) => readFile(join(dir, file))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
