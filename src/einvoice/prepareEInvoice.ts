import * as v from 'valibot';
import { InputRejected, validationFailed, type Issue } from '../errors.js';
import { toIssues } from '../invoice/issues.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { FormatChecks } from './formats/format.js';
import { prepareInvoiceWithRuleIds } from './prepareWithRuleIds.js';
import {
  DEFAULT_PROFILE,
  EINVOICE_PROFILES,
  PROFILES,
  ProfileField,
  type EInvoiceFormat,
  type EInvoiceProfile,
} from './profiles.js';
import { checkEn16931, type RuleContext } from './rules.js';
import { profileRulesFailed } from './rulesFailed.js';

/**
 * The e-invoice routes' input: the invoice of /v1/invoice.pdf (same schema, same rules, same
 * totals), an optional `profile`, then its format's checks (formats/format.ts FormatChecks): the base
 * (EN 16931's rules), the profile's rules, and the checks of the format's own request object. A
 * failing rule is a 400 before any payment, so an invoice the official rules would reject is never
 * charged for.
 */
export interface ProfiledInvoice {
  prepared: PreparedInvoice;
  profile: EInvoiceProfile;
  /** What the format's own request object check kept (FormatChecks.own): its writer and validate's report take it. */
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
  at: Date = new Date(),
): ProfiledInvoice & { issues: Issue[] } {
  const { invoiceBody, profile, profileIssues } = splitProfile(body);
  return checkUnder(profile, invoiceBody, profileIssues, format, at);
}

/**
 * The request of the route of a syntax of a format's own (formats/format.ts OwnSyntaxWriter), and of a
 * batch item in it: `profile` absent or the format's, checked under the format (a 400 naming every
 * issue, before any payment).
 */
export function prepareOwnSyntaxRequest(
  profile: EInvoiceProfile,
  route: string,
  body: unknown,
  at: Date = new Date(),
): ProfiledInvoice {
  const { invoiceBody, issues: leading } = withoutProfile(body, profile, route);
  const { writes, writer, title } = PROFILES[profile];
  const { issues, ...checked } = checkUnder(profile, invoiceBody, leading, writes[0], at);
  if (issues.length > 0) throw profileRulesFailed(writer?.refusalName ?? title, issues);
  return checked;
}

/**
 * The checks of a request under a profile, composed (FormatChecks): a malformed invoice or request
 * object is thrown with every issue found before it (`leading`, the profile's), else every rule the
 * request breaks is returned: the base, the profile's rules, the format's own object's checks.
 */
function checkUnder(
  profile: EInvoiceProfile,
  requestBody: unknown,
  leading: Issue[],
  format: EInvoiceFormat | undefined,
  at: Date,
): ProfiledInvoice & { issues: Issue[] } {
  const checks: FormatChecks = PROFILES[profile].checks ?? {};
  const { invoiceBody, objects } = takeOwnObjects(requestBody);
  const before = [...leading];
  for (const [owner, _object] of objects)
    if (owner !== profile)
      before.push({ path: owner, code: 'unknown_property', message: `is only taken with profile ${owner}` });
  const object = checks.own ? parseOwnObject(profile, checks.own.field, objects.get(profile)) : undefined;
  if (object) before.push(...object.issues);
  let prepared: PreparedInvoice;
  try {
    // EN 16931 names an invoice's model failures by its rule ids; a syntax of a format's own does not.
    prepared = checks.base === 'none' ? prepareInvoice(invoiceBody) : prepareInvoiceWithRuleIds(invoiceBody);
  } catch (error) {
    if (error instanceof InputRejected && before.length > 0)
      throw new InputRejected(error.code, error.message, [...before, ...(error.issues ?? [])]);
    throw error;
  }
  if (before.length > 0) throw validationFailed(before);
  const own = checks.own?.check(prepared, object!.value, at);
  return {
    prepared,
    profile,
    issues: [...formatIssues(profile, format), ...checkEInvoiceRules(prepared, profile), ...(own?.issues ?? [])],
    ...(own ? { own: own.own } : {}),
  };
}

/** Every rule of the profile's base (EN 16931's unless it says otherwise) and of its own rules the invoice breaks, each with its rule id as code. */
export function checkEInvoiceRules(prepared: PreparedInvoice, profile: EInvoiceProfile): Issue[] {
  const { invoice, totals } = prepared;
  const checks: FormatChecks = PROFILES[profile].checks ?? {};
  const base = checks.base === 'none' ? [] : checks.base ? checks.base(prepared) : checkEn16931(invoice, totals);
  if (!checks.rules?.length) return base;
  const context: RuleContext = { invoice, totals, categories: new Set(totals.groups.map((group) => group.category)) };
  const national = checks.rules.flatMap((rule) =>
    rule.check(context).map((issue) => ({ path: issue.path, code: rule.id, message: issue.message })),
  );
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

/** The profiles whose format takes a request object of its own, named after the profile. */
const OWN_OBJECT_PROFILES = EINVOICE_PROFILES.filter((profile) => PROFILES[profile].checks?.own);

const isObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body);

/** The body without `profile` (the invoice schema does not know it) and the profile it names. */
function splitProfile(body: unknown): { invoiceBody: unknown; profile: EInvoiceProfile; profileIssues: Issue[] } {
  if (!isObject(body) || !('profile' in body))
    return { invoiceBody: body, profile: DEFAULT_PROFILE, profileIssues: [] };
  const { profile, ...invoiceBody } = body;
  const parsed = v.safeParse(ProfileField, profile);
  const chosen = parsed.success ? parsed.output : DEFAULT_PROFILE;
  const profileIssues = parsed.success ? [] : toIssues(parsed.issues).map((issue) => ({ ...issue, path: 'profile' }));
  return { invoiceBody, profile: chosen, profileIssues };
}

/** A route of a format's own: `profile` may only be absent or the format's. */
function withoutProfile(
  body: unknown,
  profile: EInvoiceProfile,
  route: string,
): { invoiceBody: unknown; issues: Issue[] } {
  if (!isObject(body) || !('profile' in body)) return { invoiceBody: body, issues: [] };
  const { profile: named, ...invoiceBody } = body;
  return named === profile || named === undefined
    ? { invoiceBody, issues: [] }
    : {
        invoiceBody,
        issues: [{ path: 'profile', code: 'profile_format', message: `must be ${profile} (or absent) on ${route}` }],
      };
}

/** The formats' request objects (`ksef`, `fatturapa`) taken off the invoice body, by profile. */
function takeOwnObjects(body: unknown): { invoiceBody: unknown; objects: Map<EInvoiceProfile, unknown> } {
  const objects = new Map<EInvoiceProfile, unknown>();
  if (!isObject(body) || !OWN_OBJECT_PROFILES.some((profile) => profile in body)) return { invoiceBody: body, objects };
  const invoiceBody = { ...body };
  for (const profile of OWN_OBJECT_PROFILES)
    if (profile in invoiceBody) {
      objects.set(profile, invoiceBody[profile]);
      delete invoiceBody[profile];
    }
  return { invoiceBody, objects };
}

/** A format's request object parsed (absent: `{}`, its defaults), its issues at `<profile>.…`. */
function parseOwnObject(
  profile: EInvoiceProfile,
  field: v.GenericSchema,
  raw: unknown,
): { value: unknown; issues: Issue[] } {
  const parsed = v.safeParse(field, raw ?? {}, { abortEarly: false });
  if (parsed.success) return { value: parsed.output, issues: [] };
  const issues = toIssues(parsed.issues).map((issue) => ({
    ...issue,
    path: issue.path ? `${profile}.${issue.path}` : profile,
  }));
  return { value: undefined, issues };
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
