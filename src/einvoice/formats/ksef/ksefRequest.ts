import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../../../errors.js';
import { toIssues } from '../../../invoice/issues.js';
import { prepareInvoice, type PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { computeFa3Amounts, type Fa3Amounts } from './fa3Amounts.js';
import { checkKsef, lineRateCodes } from './ksefChecks.js';
import { KsefFieldsSchema, type KsefFields, type RateCode } from './ksefFields.js';

/**
 * An e-invoice request under profile ksef: the invoice of /v1/invoice.pdf (same schema, rules and
 * totals) with its optional `ksef` object, checked against FA(3)'s rules. The free validate route
 * answers every issue; the paid route refuses any (a 400 before payment).
 */
export interface KsefInvoice {
  prepared: PreparedInvoice;
  profile: 'ksef';
  ksef: KsefFields;
  /** Each line's P_12 (undefined: margin scheme). */
  lineCodes: (RateCode | undefined)[];
  amounts: Fa3Amounts;
}

/** The request checked: the invoice and every FA(3) rule it breaks (not thrown). Throws only when the body is no valid invoice. */
export function checkKsefRequest(invoiceBody: unknown, leadingIssues: Issue[] = []): KsefInvoice & { issues: Issue[] } {
  const { body, ksefValue } = splitKsef(invoiceBody);
  const parsed = v.safeParse(KsefFieldsSchema, ksefValue ?? {});
  const ksefIssues = parsed.success
    ? []
    : toIssues(parsed.issues).map((found) => ({ ...found, path: found.path ? `ksef.${found.path}` : 'ksef' }));
  const before = [...leadingIssues, ...ksefIssues];
  let prepared: PreparedInvoice;
  try {
    prepared = prepareInvoice(body);
  } catch (error) {
    if (error instanceof InputRejected && before.length > 0)
      throw new InputRejected(error.code, error.message, [...before, ...(error.issues ?? [])]);
    throw error;
  }
  if (before.length > 0 || !parsed.success) throw validationFailed(before);
  const ksef = parsed.output;
  const lineCodes = lineRateCodes(prepared, ksef);
  const issues = checkKsef(prepared, ksef, lineCodes);
  return { prepared, profile: 'ksef', ksef, lineCodes, amounts: computeFa3Amounts(prepared, ksef, lineCodes), issues };
}

/** For the paid route: the checked request, or a 400 listing every issue. */
export function prepareKsefRequest(invoiceBody: unknown, leadingIssues: Issue[] = []): KsefInvoice {
  const { issues, ...checked } = checkKsefRequest(invoiceBody, leadingIssues);
  if (issues.length > 0) throw ksefRulesFailed(issues);
  return checked;
}

function ksefRulesFailed(issues: Issue[]): InputRejected {
  const codes = [...new Set(issues.map((found) => found.code))].join(', ');
  return new InputRejected(
    'einvoice_rules_failed',
    `The invoice breaks KSeF FA(3) rule${issues.length === 1 ? '' : 's'} ${codes}; see issues. Nothing was charged.`,
    issues,
  );
}

function splitKsef(body: unknown): { body: unknown; ksefValue: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('ksef' in body))
    return { body, ksefValue: undefined };
  const { ksef, ...rest } = body as Record<string, unknown>;
  return { body: rest, ksefValue: ksef };
}
