import { completePackage, sharedPartialNames } from '../render/builtinPackages.js';
import { checkCss } from './checkCss.js';
import { checkHandlebars } from './checkHandlebars.js';
import { checkMarkup } from './checkMarkup.js';
import { headEnd } from '../render/designPage.js';
import { checkContract, previewView } from './contract/checkContract.js';
import { templateId, type TemplatePackage } from '../invoice/templatePackage.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { issueAt, type TemplateFile, type TemplateIssue } from './templateIssue.js';

/** At most this many issues are answered: a broken package can have thousands (one per line of 200). */
const MAX_ISSUES = 100;

type Examination = { invalid: TemplateIssue[]; incomplete: TemplateIssue[] };

/**
 * Reports by package id (the id is the SHA-256 of the package: the same id, the same report). The
 * contract fills 12 reference invoices, one of 200 lines (≈ 0.4 s); a designer's check and then PUT
 * of the same package, or a package checked again, costs a hash. Per process (each compute worker
 * keeps its own), least recently used first out.
 */
const REPORTS_KEPT = 64;
const reports = new Map<string, Examination>();

/**
 * Everything the service checks of a package before storing or printing it (docs/templates.md):
 * each file it gives, as Handlebars, markup and CSS (template_invalid), then, only when those pass,
 * the content contract over the reference invoices (template_incomplete). Pure CPU: it runs on
 * the compute pool with the request's parse.
 */
export function examinePackage(pkg: TemplatePackage): Examination {
  const id = templateId(pkg);
  const kept = reports.get(id);
  if (kept) reports.delete(id);
  const report = kept ?? examineWhole(pkg);
  reports.set(id, report);
  if (reports.size > REPORTS_KEPT) reports.delete(reports.keys().next().value!);
  return report;
}

/**
 * What a preview checks (POST /v1/templates/preview): every file as PUT checks it, and the package
 * filled with the one invoice it prints rather than the 12 reference invoices; that invoice's facts
 * are then read from the printed page (render/printedFacts.ts), as for every stored design.
 */
export function examineForPreview(pkg: TemplatePackage, prepared: PreparedInvoice): TemplateIssue[] {
  const invalid = checkFiles(pkg).slice(0, MAX_ISSUES);
  if (invalid.length > 0) return invalid;
  const filled = checkContract(completePackage(pkg), ownFiles(pkg), { views: [previewView(prepared)], facts: false });
  return filled.invalid.slice(0, MAX_ISSUES);
}

function examineWhole(pkg: TemplatePackage): Examination {
  const invalid = checkFiles(pkg).slice(0, MAX_ISSUES);
  if (invalid.length > 0) return { invalid, incomplete: [] };
  const complete = completePackage(pkg);
  const { invalid: filled, incomplete } = checkContract(complete, ownFiles(pkg));
  return { invalid: filled.slice(0, MAX_ISSUES), incomplete: incomplete.slice(0, MAX_ISSUES) };
}

function checkFiles(pkg: TemplatePackage): TemplateIssue[] {
  const shared = sharedPartialNames();
  const issues: TemplateIssue[] = [];
  for (const name of Object.keys(pkg.partials ?? {}))
    if (!shared.has(name))
      issues.push(
        issueAt(`partials.${name}`, 'unknown_partial', `"${name}" is not a partial of this service (GET /v1/templates/classic lists them)`),
      );
  const files: [TemplateFile, string][] = [
    ...(pkg.html === undefined ? [] : [['html', pkg.html] as [TemplateFile, string]]),
    ...Object.entries(pkg.partials ?? {}).map(([name, source]): [TemplateFile, string] => [`partials.${name}`, source]),
  ];
  for (const [file, source] of files) {
    issues.push(...checkHandlebars(file, source, shared), ...checkMarkup(file, source));
  }
  if (pkg.html !== undefined) issues.push(...pageShape(pkg.html));
  if (pkg.css !== undefined) issues.push(...checkCss('css', pkg.css));
  return issues;
}

/** The page has a <head> (the CSP goes first in it) and its one <style> holds {{css}}. */
function pageShape(html: string): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  if (headEnd(html) === undefined)
    issues.push(issueAt('html', 'missing_head', 'the page needs a <head> start tag, as classic\'s has'));
  if (!/<style>\s*\{\{\s*css\s*\}\}\s*<\/style>/.test(html))
    issues.push(
      issueAt('html', 'missing_css', 'the page needs <style>{{css}}</style> in its <head>: the stylesheets, page breaks and stamp are there'),
    );
  return issues;
}

/** The files the package itself gives (a fill error is placed in one of them, never in classic's). */
function ownFiles(pkg: TemplatePackage): [TemplateFile, string][] {
  return [
    ...(pkg.html === undefined ? [] : [['html', pkg.html] as [TemplateFile, string]]),
    ...Object.entries(pkg.partials ?? {}).map(([name, source]): [TemplateFile, string] => [`partials.${name}`, source]),
  ];
}

