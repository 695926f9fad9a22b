import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../errors.js';
import { toIssues } from '../invoice/issues.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { VatCategory } from '../invoice/vatCategories.js';
import { IDENTIFIER_SCHEMES } from '../invoice/partyIdentifiers.js';
import type { FatturaPAFields } from './formats/fatturapa/fields.js';
import { checkFatturaPA, parseFatturaPAFields } from './formats/fatturapa/request.js';
import { DEFAULT_PROFILE, PROFILES, ProfileField, type EInvoiceFormat, type EInvoiceProfile } from './profiles.js';
import { categoryRateRule, checkEn16931, type RuleContext } from './rules.js';

/**
 * The e-invoice routes' input: the invoice of /v1/invoice.pdf (same schema, same rules, same
 * totals), an optional `profile`, then the EN 16931 rules and the profile's national rules. A
 * failing rule is a 400 before any payment, so an invoice the official rules would reject is never
 * charged for.
 */
export interface ProfiledInvoice {
  prepared: PreparedInvoice;
  profile: EInvoiceProfile;
  /** Profile fatturapa: the request's `fatturapa` object with its defaults. */
  fatturapa?: FatturaPAFields;
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
  const { invoiceBody, profile, profileIssues: ownIssues, fatturapa: rawFatturaPA } = splitProfile(body);
  // A format with its own request object checks the request itself (FA(3): formats/ksef/format.ts).
  const ownCheck = PROFILES[profile].checkRequest;
  if (ownCheck && ownIssues.length === 0) {
    const { issues, ...checked } = ownCheck(invoiceBody);
    return { ...checked, profile, issues: [...formatIssues(profile, format), ...issues] };
  }
  // FatturaPA's parsed object travels on with the invoice (its route and validate's report need it),
  // which checkRequest's answer has no place for: its SDI controls run here (formats/fatturapa/request.ts).
  const italian = profile === 'fatturapa' ? parseFatturaPAFields(rawFatturaPA) : undefined;
  const profileIssues = [...ownIssues, ...(italian?.issues ?? [])];
  let prepared: PreparedInvoice;
  try {
    prepared = prepareInvoiceWithRuleIds(invoiceBody);
  } catch (error) {
    if (error instanceof InputRejected && profileIssues.length > 0)
      throw new InputRejected(error.code, error.message, [...profileIssues, ...(error.issues ?? [])]);
    throw error;
  }
  if (profileIssues.length > 0) throw validationFailed(profileIssues);
  if (italian)
    return {
      prepared,
      profile,
      fatturapa: italian.fields,
      issues: [...formatIssues(profile, format), ...checkFatturaPA(prepared, italian.fields)],
    };
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

export function rulesFailed(profile: EInvoiceProfile, issues: Issue[]): InputRejected {
  const rules = [...new Set(issues.map((issue) => issue.code))].join(', ');
  const s = issues.length === 1 ? '' : 's';
  return profile === DEFAULT_PROFILE
    ? new InputRejected(
        'en16931_rules_failed',
        `The invoice breaks EN 16931 rule${s} ${rules}; see issues. Nothing was charged.`,
        issues,
      )
    : new InputRejected(
        'einvoice_rules_failed',
        `The invoice breaks ${PROFILES[profile].title} rule${s} ${rules}; see issues. Nothing was charged.`,
        issues,
      );
}

/**
 * The body without `profile` and `fatturapa` (the invoice schema knows neither), the profile it
 * names and its `fatturapa` object, which only profile fatturapa takes.
 */
function splitProfile(body: unknown): {
  invoiceBody: unknown;
  profile: EInvoiceProfile;
  profileIssues: Issue[];
  fatturapa: unknown;
} {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('profile' in body || 'fatturapa' in body))
    return { invoiceBody: body, profile: DEFAULT_PROFILE, profileIssues: [], fatturapa: undefined };
  const { profile, fatturapa, ...invoiceBody } = body as Record<string, unknown>;
  const parsed = v.safeParse(ProfileField, profile);
  const chosen = parsed.success ? parsed.output : DEFAULT_PROFILE;
  const profileIssues = parsed.success ? [] : toIssues(parsed.issues).map((issue) => ({ ...issue, path: 'profile' }));
  if (fatturapa !== undefined && chosen !== 'fatturapa')
    profileIssues.push({
      path: 'fatturapa',
      code: 'unknown_property',
      message: 'is only taken with profile fatturapa',
    });
  return { invoiceBody, profile: chosen, profileIssues, fatturapa };
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

/**
 * prepareInvoice, with two of its checks reported under the official rule ids: the category/rate
 * mismatch (the invoice model refuses it on every route) under EN 16931's, and a malformed scheme
 * identifier (electronic address, legal registration) under the rule that checks that scheme
 * (PEPPOL-COMMON-R040 for a GLN, …), the way e-invoice users look them up.
 */
function prepareInvoiceWithRuleIds(body: unknown): PreparedInvoice {
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
