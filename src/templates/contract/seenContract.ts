import type { PreparedInvoice } from '../../invoice/prepareInvoice.js';
import { templateId, type TemplatePackage } from '../../invoice/templatePackage.js';
import { collapsed } from '../../render/contractFacts.js';
import { unseenIssue, type UnseenFact } from '../../render/printedFacts.js';
import type { TemplateIssue } from '../templateIssue.js';
import type { PackageFonts } from '../../invoice/templatePackage.js';
import { preparedReferences } from './referenceInvoices.js';

/**
 * The content contract's second half (docs/templates.md): the facts a package's pages hold as text
 * (checkContract.ts, on the compute pool) must also be visible once Chromium lays the pages out as
 * they print (render/factsOnPage.ts). Each reference invoice is laid out with the package on one
 * render page; a fact its page hides is a hidden_fact with the reason, by field and reference
 * invoice. Reports are kept by package id, as checkPackage.ts keeps the text's.
 */
type LookAtFacts = (invoices: readonly PreparedInvoice[]) => Promise<UnseenFact[][]>;

const REPORTS_KEPT = 64;
const reports = new Map<string, TemplateIssue[]>();
/** Looks under way by id: the same package checked again meanwhile (a check, then its PUT) waits for the one look. */
const looking = new Map<string, Promise<TemplateIssue[]>>();

/** The facts the package's reference pages hide (or, rarely, miss once laid out), at most 100. */
export async function checkSeenContract(
  look: LookAtFacts,
  pkg: TemplatePackage,
  fonts: PackageFonts,
): Promise<TemplateIssue[]> {
  const id = templateId(pkg);
  const kept = reports.get(id);
  if (kept) {
    reports.delete(id);
    reports.set(id, kept);
    return kept;
  }
  const pending = looking.get(id);
  if (pending) return pending;
  const under = lookAt(look, { id, package: pkg, fonts }).finally(() => looking.delete(id));
  looking.set(id, under);
  return under;
}

async function lookAt(look: LookAtFacts, design: NonNullable<PreparedInvoice['design']>): Promise<TemplateIssue[]> {
  const invoices = preparedReferences();
  const found = await look(invoices.map((reference) => ({ ...reference.prepared, design })));
  const issues: TemplateIssue[] = [];
  const seen = new Set<string>();
  found.forEach((unseen, index) => {
    for (const fact of unseen) {
      if (seen.has(fact.fact.field)) continue;
      seen.add(fact.fact.field);
      const text = fact.fact.text === undefined ? ' (its QR code)' : ` ("${collapsed(fact.fact.text).slice(0, 60)}")`;
      issues.push({ ...unseenIssue(fact, text), invoice: invoices[index]!.id });
    }
  });
  const report = issues.slice(0, 100);
  reports.set(design.id, report);
  if (reports.size > REPORTS_KEPT) reports.delete(reports.keys().next().value!);
  return report;
}
