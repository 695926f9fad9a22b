import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LABEL_KEYS, type LabelCatalog } from '../invoice/labelKeys.js';
import { LANGUAGES, type Language } from '../invoice/locales.js';

/**
 * The label catalogs, templates/locales/<language>.json: the words of the invoice in each of its
 * languages, edited by translators and designers like the templates (and reloaded with them).
 * A catalog that lacks a key, has one too many or breaks a placeholder stops the load with a
 * message naming the file and the key, so a half-translated catalog never prints.
 */
export type LabelCatalogs = Record<Language, LabelCatalog>;

export function loadLabelCatalogs(root: string): LabelCatalogs {
  return Object.fromEntries(
    LANGUAGES.map((language) => [language, readCatalog(join(root, 'templates', 'locales', `${language}.json`))]),
  ) as LabelCatalogs;
}

function readCatalog(file: string): LabelCatalog {
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const known = new Set<string>(LABEL_KEYS);
  const problems = [
    ...LABEL_KEYS.filter((key) => typeof data[key] !== 'string' || (data[key] as string).trim() === '').map(
      (key) => `"${key}" is missing or empty`,
    ),
    ...Object.keys(data)
      .filter((key) => !known.has(key))
      .map((key) => `"${key}" is not a label key`),
  ];
  const pageOf = data.page_of;
  if (typeof pageOf === 'string' && !(pageOf.includes('{page}') && pageOf.includes('{pages}')))
    problems.push('"page_of" must contain {page} and {pages}');
  if (typeof data.tax_currency_total === 'string' && !data.tax_currency_total.includes('{currency}'))
    problems.push('"tax_currency_total" must contain {currency}');
  if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}`);
  return data as LabelCatalog;
}
