import type { PaperSetting } from './paper.js';

/**
 * Untagged by default. Tagging (Chromium's structure tree for assistive technology) doubles the
 * render time of a long invoice (≈ 484 vs 250 ms for 200 lines), makes the file ≈ 6× larger
 * (562 vs 94 KB) and cuts throughput by a quarter (docs/rendering.md). Invoices are read on screen or
 * paper and machine-read by their text layer, which untagged PDFs have in full (text extraction
 * and copy work the same); Chromium's tags don't make a PDF/UA document anyway. An operator who
 * needs tags turns them on with `tagged: true`.
 */
export const TAGGED_DEFAULT = false;

/** The renderer's defaults, and the configuration's (config.ts reads them from here). */
export const RENDER_DEFAULTS = {
  poolSize: 2,
  queueLimit: 16,
  renderTimeoutMs: 20_000,
  maxRendersPerBrowser: 2000,
  paperSize: 'auto' as PaperSetting,
  watchTemplates: false,
  tagged: TAGGED_DEFAULT,
};
