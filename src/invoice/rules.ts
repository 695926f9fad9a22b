import type { Issue } from '../errors.js';
import { decimalToString } from './decimal.js';
import type { Invoice } from './schema.js';
import type { Totals } from './totals.js';
import { categoryFitsRate, EXEMPT_CATEGORIES } from './vatCategories.js';

/** Rules across fields of a schema-valid invoice, every one reported at once with its path. */
export function checkInvoiceRules(invoice: Invoice, totals: Totals): Issue[] {
  const issues: Issue[] = [];
  invoice.line_items.forEach((line, at) => {
    const { category, rate } = totals.lineTax[at] ?? {};
    if (line.tax_category === undefined || category === undefined || rate === undefined) return;
    if (!categoryFitsRate(category, rate.coefficient > 0n)) {
      const from =
        line.tax_rate !== undefined
          ? 'tax_rate'
          : invoice.tax_rate !== undefined
            ? "the invoice's tax_rate"
            : 'no tax_rate (0)';
      issues.push({
        path: `line_items[${at}].tax_category`,
        code: 'category_rate_mismatch',
        message:
          category === 'S'
            ? `category S (standard rate) needs a rate above 0; this line's rate is 0 (from ${from})`
            : `category ${category} needs a rate of 0; this line's rate is ${decimalToString(rate)} (from ${from})`,
      });
    }
  });
  if (
    invoice.tax_exemption_reason !== undefined &&
    !totals.groups.some((group) => EXEMPT_CATEGORIES.has(group.category))
  ) {
    issues.push({
      path: 'tax_exemption_reason',
      code: 'not_applicable',
      message: 'is only printed for invoices with lines in category E, AE, K, G or O; this invoice has none',
    });
  }
  return issues;
}
