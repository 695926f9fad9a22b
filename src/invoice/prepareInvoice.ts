import * as v from 'valibot';
import { validationFailed } from '../errors.js';
import { checkTotals } from './checkTotals.js';
import { toIssues } from './issues.js';
import { invoiceLocale, type InvoiceLocale } from './locales.js';
import { decodeLogo, type Logo } from './logo.js';
import { checkInvoiceRules } from './rules.js';
import { InvoiceSchema, type Invoice } from './schema.js';
import { computeTotals, type Totals } from './totals.js';

export interface PreparedInvoice {
  invoice: Invoice;
  totals: Totals;
  locale: InvoiceLocale;
  /** The decoded, checked logo (decoded once here, never written anywhere). */
  logo: Logo | undefined;
}

/**
 * Everything the paid route and validate do before any payment or rendering: schema check (every
 * issue at once), then the rules across fields and the totals. Throws a 400 AppError.
 */
export function prepareInvoice(body: unknown): PreparedInvoice {
  const parsed = v.safeParse(InvoiceSchema, body, { abortEarly: false });
  if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
  const invoice = parsed.output;
  const totals = computeTotals(invoice);
  const decoded = invoice.logo === undefined ? undefined : decodeLogo(invoice.logo);
  const issues = [...checkInvoiceRules(invoice, totals), ...(decoded && 'issue' in decoded ? [decoded.issue] : [])];
  if (issues.length > 0) throw validationFailed(issues);
  const error = checkTotals(totals);
  if (error) throw error;
  return { invoice, totals, locale: invoiceLocale(invoice.locale, invoice.currency), logo: decoded && 'logo' in decoded ? decoded.logo : undefined };
}
