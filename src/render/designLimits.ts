import { InputRejected } from '../errors.js';

/**
 * The page limits of a customer's design (docs/templates.md, limits): built-in classic prints 200
 * lines on 7 pages, so a design may take three times classic's room, never fewer than 20 pages; a
 * designer's preview at most 10. A design past its limit is refused after printing, uncharged
 * (with the render deadline, RENDER_TIMEOUT_MS, these bound what one design can cost).
 */
export const PREVIEW_MAX_PAGES = 10;
const MIN_DESIGN_PAGES = 20;
const LINES_PER_PAGE_AT_LEAST = 10;

export const designMaxPages = (lines: number): number =>
  Math.max(MIN_DESIGN_PAGES, Math.ceil(lines / LINES_PER_PAGE_AT_LEAST));

export const designTooLong = (pages: number, max: number): InputRejected =>
  new InputRejected(
    'template_too_long',
    `The design printed ${pages} pages, over its limit of ${max}; nothing was charged.`,
    [{ path: 'design', code: 'too_many_pages', message: `prints ${pages} pages; at most ${max}` }],
  );
