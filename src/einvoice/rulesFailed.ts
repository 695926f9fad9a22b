import { InputRejected, type Issue } from '../errors.js';

/**
 * The refusal of a request that breaks a profile's own rules, naming each rule once. A leaf module
 * (no registry import) so a format module can refuse in the same words as prepareEInvoice.ts
 * without importing the registry that lists it.
 */
export function profileRulesFailed(title: string, issues: Issue[]): InputRejected {
  const rules = [...new Set(issues.map((issue) => issue.code))].join(', ');
  const s = issues.length === 1 ? '' : 's';
  return new InputRejected(
    'einvoice_rules_failed',
    `The invoice breaks ${title} rule${s} ${rules}; see issues. Nothing was charged.`,
    issues,
  );
}
