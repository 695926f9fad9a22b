import * as v from 'valibot';
import { validationFailed } from '../errors.js';
import { checkTotals } from './checkTotals.js';
import { toIssues } from './issues.js';
import { InvoiceSchema, type Invoice } from './schema.js';
import { computeTotals, type Totals } from './totals.js';

export interface PreparedInvoice {
  invoice: Invoice;
  totals: Totals;
}

/**
 * Everything the paid route and validate do before any payment or rendering: schema check (every
 * issue at once), then the totals and the rules that need them. Throws a 400 AppError.
 */
export function prepareInvoice(body: unknown): PreparedInvoice {
  const parsed = v.safeParse(InvoiceSchema, body, { abortEarly: false });
  if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
  const totals = computeTotals(parsed.output);
  const error = checkTotals(totals);
  if (error) throw error;
  return { invoice: parsed.output, totals };
}
