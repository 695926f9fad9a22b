import { contrastWithWhite } from '../invoice/designFields.js';
import type { InvoiceView } from './invoiceView.js';

/**
 * The few style rules that depend on the invoice, appended after styles/*.css: the accent colour
 * of the request, "Page X of Y" in the invoice language, and the page number on the left for
 * right-to-left invoices. "Page X of Y" always comes from the catalog (styles/print.css has no
 * words of its own), English included.
 *
 * Only two kinds of value reach CSS here, never request text: the accent, rebuilt by the view
 * model as #rrggbb from a parsed number, and the catalog's page_of text (our own files; requests
 * cannot override it), written as CSS strings with every character outside letters, digits and
 * spaces escaped.
 */
export function invoiceCss(view: Pick<InvoiceView, 'accent' | 'dir' | 'lang' | 'labels'>): string {
  const rules: string[] = [];
  if (view.accent !== null) {
    if (!/^#[0-9a-f]{6}$/.test(view.accent)) throw new Error('accent must be #rrggbb');
    rules.push(`:root { --accent: ${view.accent}; }`);
    // Text on the accent (modern's masthead and total band) is white; on a light accent, dark.
    if (contrastWithWhite(view.accent) < 3) rules.push(':root { --on-accent: #111827; }');
  }
  const box = view.dir === 'rtl' ? 'bottom-left' : 'bottom-right';
  const content = pageOfContent(view.labels.page_of);
  rules.push(
    view.dir === 'rtl'
      ? `@page { @bottom-right { content: none; } @${box} { content: ${content}; } }`
      : `@page { @${box} { content: ${content}; } }`,
  );
  return `\n/* This invoice (src/render/invoiceCss.ts). */\n${rules.join('\n')}\n`;
}

/** "Seite {page} von {pages}" → "Seite " counter(page) " von " counter(pages) */
export function pageOfContent(template: string): string {
  return template
    .split(/(\{pages?\})/)
    .filter((part) => part !== '')
    .map((part) => (part === '{page}' ? 'counter(page)' : part === '{pages}' ? 'counter(pages)' : cssString(part)))
    .join(' ');
}

function cssString(text: string): string {
  return `"${[...text].map((char) => (/[\p{L}\p{N} ]/u.test(char) ? char : `\\${char.codePointAt(0)!.toString(16)} `)).join('')}"`;
}
