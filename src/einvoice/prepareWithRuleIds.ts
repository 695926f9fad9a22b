import { InputRejected, type Issue } from '../errors.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { VatCategory } from '../invoice/vatCategories.js';
import { IDENTIFIER_SCHEMES } from '../invoice/partyIdentifiers.js';
import { categoryRateRule } from './rules.js';

/**
 * prepareInvoice, with two of its checks reported under the official rule ids: the category/rate
 * mismatch (the invoice model refuses it on every route) under EN 16931's, and a malformed scheme
 * identifier (electronic address, legal registration) under the rule that checks that scheme
 * (PEPPOL-COMMON-R040 for a GLN, …), the way e-invoice users look them up.
 */
export function prepareInvoiceWithRuleIds(body: unknown): PreparedInvoice {
  try {
    return prepareInvoice(body);
  } catch (error) {
    if (!(error instanceof InputRejected) || !error.issues) throw error;
    const lines = (body as { line_items?: { tax_category?: VatCategory }[] }).line_items ?? [];
    const issues = error.issues.map((issue) => {
      if (issue.code === 'category_rate_mismatch') {
        const at = Number(/^line_items\[(\d+)\]/.exec(issue.path)?.[1]);
        const category = lines[at]?.tax_category;
        return category ? { ...issue, code: categoryRateRule(category) } : issue;
      }
      const rule = identifierRule(body, issue);
      return rule ? { ...issue, code: rule } : issue;
    });
    throw new InputRejected(error.code, error.message, issues);
  }
}

/** The official rule of a scheme identifier's format issue ("seller.electronic_address.id"). */
function identifierRule(body: unknown, issue: Issue): string | undefined {
  const match = /^(seller|buyer|ship_to)\.(electronic_address|legal_registration)\.id$/.exec(issue.path);
  if (!match || issue.code !== 'invalid_value') return undefined;
  const identifier = (body as Record<string, Record<string, { scheme?: unknown } | undefined> | undefined>)[
    match[1]!
  ]?.[match[2]!];
  return typeof identifier?.scheme === 'string' ? IDENTIFIER_SCHEMES.get(identifier.scheme)?.rule : undefined;
}
