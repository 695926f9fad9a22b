import * as v from 'valibot';
import { AppError, InputRejected, validationFailed } from '../errors.js';
import { canonicalJson } from '../invoice/designFields.js';
import { parseOrReject } from '../invoice/issues.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { THEME_TTL_SECONDS, type ThemeStore } from '../themes/themeStore.js';
import { examinePackage } from './checkPackage.js';
import { isTemplateRef, storedForm, templateId, TemplatePackageSchema, type TemplatePackage } from '../invoice/templatePackage.js';
import type { TemplateIssue } from './templateIssue.js';
import type { FontStore } from '../themes/fontStore.js';
import { loadPackageFonts } from './packageFonts.js';

/**
 * Stored designs: PUT /v1/templates keeps a checked package under its id in a store like the
 * themes' (memory, or Redis when REDIS_URL is set; same expiry), and an invoice names it with
 * "design": "sha256:…". A package is checked whole before it is stored (checkPackage.ts).
 */
export const TEMPLATE_TTL_SECONDS = THEME_TTL_SECONDS;

/** The package's shape (400 validation_failed), then every check (template_invalid, template_incomplete). */
export function parseTemplatePackage(body: unknown): TemplatePackage {
  const pkg = storedForm(parseOrReject(TemplatePackageSchema, body));
  const { invalid, incomplete } = examinePackage(pkg);
  if (invalid.length > 0) throw templateInvalid(invalid);
  if (incomplete.length > 0) throw templateIncomplete(incomplete);
  return pkg;
}

export const templateInvalid = (issues: TemplateIssue[]): InputRejected =>
  new InputRejected('template_invalid', `The design package is refused: ${summary(issues)}.`, issues);

export const templateIncomplete = (issues: TemplateIssue[]): InputRejected =>
  new InputRejected(
    'template_incomplete',
    `The design leaves out what an invoice must show: ${summary(issues)}.`,
    issues,
  );

function summary(issues: TemplateIssue[]): string {
  const first = issues[0]!;
  const where = first.line ? ` (line ${first.line}, column ${first.column})` : first.invoice ? ` (${first.invoice})` : '';
  return issues.length === 1 ? `${first.path}${where}: ${first.message}` : `${issues.length} problems; see issues`;
}

export async function putTemplate(
  store: ThemeStore,
  pkg: TemplatePackage,
): Promise<{ id: string; expires_in_seconds: number }> {
  const id = templateId(pkg);
  await withStore(() => store.put(id, canonicalJson(storedForm(pkg))));
  return { id, expires_in_seconds: TEMPLATE_TTL_SECONDS };
}

/** The stored package, or undefined for an unknown (or expired) id. */
export async function getTemplate(store: ThemeStore | undefined, id: string): Promise<TemplatePackage | undefined> {
  if (!isTemplateRef(id) || store === undefined) return undefined;
  const stored = await withStore(() => store.get(id));
  // Our own canonical JSON of a package that passed every check; its shape checked again all the same.
  return stored === undefined ? undefined : v.parse(TemplatePackageSchema, JSON.parse(stored));
}

/** Whether the invoice names a stored design ("design": "sha256:…"). */
export const namesStoredDesign = (prepared: PreparedInvoice): boolean => isTemplateRef(prepared.invoice.design);

/**
 * For an invoice whose design is a stored package's id: looks it up and puts the package, with the
 * stored fonts it names, on the prepared invoice. Runs before any payment, so an unknown design id,
 * or a font of the design's that expired, is a 400 at path "design", never charged.
 */
export async function resolveDesignReference(
  store: ThemeStore | undefined,
  fontStore: FontStore | undefined,
  prepared: PreparedInvoice,
): Promise<PreparedInvoice> {
  const id = prepared.invoice.design;
  if (!isTemplateRef(id)) return prepared;
  const pkg = await getTemplate(store, id);
  if (pkg === undefined)
    throw validationFailed([
      {
        path: 'design',
        code: 'unknown_design',
        message: `is not a stored design (unknown, or expired ${TEMPLATE_TTL_SECONDS / 86400} days after it was last put): PUT the package to /v1/templates again`,
      },
    ]);
  const fonts = await loadPackageFonts(fontStore, pkg, () => 'design');
  return { ...prepared, design: { id, package: pkg, fonts, stored: true } };
}

async function withStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new AppError('theme_store_unavailable', 'The design store is unreachable; try again shortly.', {
      cause: error,
    });
  }
}
