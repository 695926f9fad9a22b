/**
 * Numbers the README and docs/ state in their prose that the code holds (how many currencies,
 * languages, e-invoice profiles, MCP tools; the batch limit). `npm run docs` rewrites each phrase
 * below wherever a page writes it with digits, so a page cannot go on saying "up to 100 invoices"
 * after the limit became 50; test/integration/docs-generated.test.ts fails on a stale page.
 * Written in words ("the four languages of the QR-bill"), a number is left alone.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_BATCH_ITEMS } from '../../src/batch/batchRequest.js';
import { EINVOICE_PROFILES } from '../../src/einvoice/profiles.js';
import { CURRENCY_CODES } from '../../src/invoice/currencies.js';
import { LANGUAGES } from '../../src/invoice/locales.js';

/** Each phrase matches the digits it states; the value is what the code holds. */
function statedNumbers(toolCount: number): { phrase: RegExp; value: number }[] {
  return [
    { phrase: /\b\d+(?= currencies\b)/g, value: CURRENCY_CODES.length },
    { phrase: /\b\d+(?= languages\b)/g, value: LANGUAGES.length },
    { phrase: /\b\d+(?= (?:e-invoice )?profiles\b)/g, value: EINVOICE_PROFILES.length },
    // What tools/list answers in the default configuration (mcpToolList.ts).
    { phrase: /\b\d+(?= (?:MCP )?tools\b)/g, value: toolCount },
    // The batch limit: "up to 50 invoices", "at most **50 invoices**", not "5 invoices for one payment".
    { phrase: /(?<=\b(?:up to|at most) (?:\*\*)?)\d+(?= invoices\b)/g, value: MAX_BATCH_ITEMS },
  ];
}

/** `text` with every stated number written as the code holds it. */
export function withStatedNumbers(text: string, toolCount: number): string {
  return statedNumbers(toolCount).reduce((page, { phrase, value }) => page.replace(phrase, String(value)), text);
}

/** The hand-written pages whose prose may state a number: the README and docs/ (not docs/reference/, all generated). */
export function prosePages(root: string): string[] {
  const pages = readdirSync(join(root, 'docs'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => `docs/${entry.name}`);
  return ['README.md', ...pages.sort()];
}
