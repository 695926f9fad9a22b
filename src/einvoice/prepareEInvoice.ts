import { InputRejected, type Issue } from '../errors.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { VatCategory } from '../invoice/vatCategories.js';
import { categoryRateRule, checkEn16931 } from './rules.js';

/**
 * The e-invoice routes' input: the invoice of /v1/invoice.pdf (same schema, same rules, same
 * totals) plus the EN 16931 rules. A failing rule is a 400 before any payment, so an invoice the
 * official rules would reject is never charged for.
 */
export function prepareEInvoice(body: unknown): PreparedInvoice {
  const { prepared, issues } = checkEInvoice(body);
  if (issues.length > 0) throw en16931Failed(issues);
  return prepared;
}

/** For the free validate route: the prepared invoice and the rules it breaks (not thrown). */
export function checkEInvoice(body: unknown): { prepared: PreparedInvoice; issues: Issue[] } {
  const prepared = prepareInvoiceWithRuleIds(body);
  return { prepared, issues: checkEn16931(prepared.invoice, prepared.totals) };
}

export function en16931Failed(issues: Issue[]): InputRejected {
  const rules = [...new Set(issues.map((issue) => issue.code))].join(', ');
  return new InputRejected('en16931_rules_failed', `The invoice breaks EN 16931 rule${issues.length === 1 ? '' : 's'} ${rules}; see issues. Nothing was charged.`, issues);
}

/**
 * prepareInvoice, with its category/rate mismatch reported under the EN 16931 rule id; the
 * invoice model refuses that one on every route, the e-invoice routes name it
 * the way EN 16931 users look it up.
 */
function prepareInvoiceWithRuleIds(body: unknown): PreparedInvoice {
  try {
    return prepareInvoice(body);
  } catch (error) {
    if (!(error instanceof InputRejected) || !error.issues?.some((issue) => issue.code === 'category_rate_mismatch')) throw error;
    const lines = (body as { line_items?: { tax_category?: VatCategory }[] }).line_items ?? [];
    const issues = error.issues.map((issue) => {
      if (issue.code !== 'category_rate_mismatch') return issue;
      const at = Number(/^line_items\[(\d+)\]/.exec(issue.path)?.[1]);
      const category = lines[at]?.tax_category;
      return category ? { ...issue, code: categoryRateRule(category) } : issue;
    });
    throw new InputRejected(error.code, error.message, issues);
  }
}
