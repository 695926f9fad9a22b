import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../errors.js';
import { toIssues } from '../invoice/issues.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { prepareInvoiceWithRuleIds } from './prepareWithRuleIds.js';
import { DEFAULT_PROFILE, PROFILES, ProfileField, type EInvoiceFormat, type EInvoiceProfile } from './profiles.js';
import { checkEn16931, type RuleContext } from './rules.js';
import { profileRulesFailed } from './rulesFailed.js';

/**
 * The e-invoice routes' input: the invoice of /v1/invoice.pdf (same schema, same rules, same
 * totals), an optional `profile`, then the EN 16931 rules and the profile's national rules. A
 * failing rule is a 400 before any payment, so an invoice the official rules would reject is never
 * charged for.
 */
export interface ProfiledInvoice {
  prepared: PreparedInvoice;
  profile: EInvoiceProfile;
  /** A format that checks its own request object (checkRequest): that object parsed and checked. */
  own?: unknown;
}

/** The invoice of a request checked under its profile (throws every failing rule at once). */
export function prepareProfiledEInvoice(body: unknown, format?: EInvoiceFormat): ProfiledInvoice {
  const { issues, ...profiled } = checkEInvoice(body, format);
  if (issues.length > 0) throw rulesFailed(profiled.profile, issues);
  return profiled;
}

/** prepareProfiledEInvoice's invoice alone (the profile's rules checked all the same). */
export function prepareEInvoice(body: unknown): PreparedInvoice {
  return prepareProfiledEInvoice(body).prepared;
}

/** For the free validate route: the prepared invoice, its profile and every rule it breaks (not thrown). */
export function checkEInvoice(
  body: unknown,
  format?: EInvoiceFormat,
): ProfiledInvoice & { issues: Issue[]; formatAmounts?: Record<string, string> } {
  const { invoiceBody, profile, profileIssues } = splitProfile(body);
  // A format with its own request object checks the request itself (FA(3): formats/ksef/format.ts,
  // FatturaPA: formats/fatturapa/format.ts), its parsed object answered as `own`.
  const ownCheck = PROFILES[profile].checkRequest;
  if (ownCheck && profileIssues.length === 0) {
    const { issues, ...checked } = ownCheck(invoiceBody);
    return { ...checked, profile, issues: [...formatIssues(profile, format), ...issues] };
  }
  let prepared: PreparedInvoice;
  try {
    prepared = prepareInvoiceWithRuleIds(invoiceBody);
  } catch (error) {
    if (error instanceof InputRejected && profileIssues.length > 0)
      throw new InputRejected(error.code, error.message, [...profileIssues, ...(error.issues ?? [])]);
    throw error;
  }
  if (profileIssues.length > 0) throw validationFailed(profileIssues);
  return { prepared, profile, issues: [...formatIssues(profile, format), ...checkEInvoiceRules(prepared, profile)] };
}

/** Every EN 16931 rule and every rule of the profile the invoice breaks, each with its rule id as code. */
export function checkEInvoiceRules(prepared: PreparedInvoice, profile: EInvoiceProfile): Issue[] {
  const { invoice, totals } = prepared;
  const context: RuleContext = { invoice, totals, categories: new Set(totals.groups.map((group) => group.category)) };
  const national = PROFILES[profile].rules.flatMap((rule) =>
    rule.check(context).map((issue) => ({ path: issue.path, code: rule.id, message: issue.message })),
  );
  const base = PROFILES[profile].baseRules?.(prepared) ?? checkEn16931(invoice, totals);
  return [...base, ...national];
}

function rulesFailed(profile: EInvoiceProfile, issues: Issue[]): InputRejected {
  const rules = [...new Set(issues.map((issue) => issue.code))].join(', ');
  const s = issues.length === 1 ? '' : 's';
  return profile === DEFAULT_PROFILE
    ? new InputRejected(
        'en16931_rules_failed',
        `The invoice breaks EN 16931 rule${s} ${rules}; see issues. Nothing was charged.`,
        issues,
      )
    : profileRulesFailed(PROFILES[profile].title, issues);
}

/**
 * The body without `profile` (the invoice schema does not know it) and the profile it names. A
 * format's own request object (`fatturapa`) stays in the body for its checkRequest; under another
 * profile it is refused by name rather than as an unknown property of the invoice.
 */
function splitProfile(body: unknown): { invoiceBody: unknown; profile: EInvoiceProfile; profileIssues: Issue[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('profile' in body || 'fatturapa' in body))
    return { invoiceBody: body, profile: DEFAULT_PROFILE, profileIssues: [] };
  const { profile, ...withOwn } = body as Record<string, unknown>;
  const parsed = v.safeParse(ProfileField, profile);
  const chosen = parsed.success ? parsed.output : DEFAULT_PROFILE;
  const profileIssues = parsed.success ? [] : toIssues(parsed.issues).map((issue) => ({ ...issue, path: 'profile' }));
  if (withOwn.fatturapa === undefined || chosen === 'fatturapa')
    return { invoiceBody: withOwn, profile: chosen, profileIssues };
  const { fatturapa: _refused, ...invoiceBody } = withOwn;
  profileIssues.push({ path: 'fatturapa', code: 'unknown_property', message: 'is only taken with profile fatturapa' });
  return { invoiceBody, profile: chosen, profileIssues };
}

function formatIssues(profile: EInvoiceProfile, format: EInvoiceFormat | undefined): Issue[] {
  const formats: readonly EInvoiceFormat[] = PROFILES[profile].writes;
  if (format === undefined || formats.includes(format)) return [];
  return [
    {
      path: 'profile',
      code: 'profile_format',
      message: `is ${profile}, which exists as ${formats.join(', ')} only, not as ${format}`,
    },
  ];
}
