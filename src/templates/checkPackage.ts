import { completePackage, sharedPartialNames } from '../render/builtinPackages.js';
import { checkCss } from './checkCss.js';
import { checkHandlebars } from './checkHandlebars.js';
import { checkMarkup } from './checkMarkup.js';
import { headEnd } from '../render/designPage.js';
import { checkContract } from './contract/checkContract.js';
import type { TemplatePackage } from '../invoice/templatePackage.js';
import { issueAt, type TemplateFile, type TemplateIssue } from './templateIssue.js';

/** At most this many issues are answered: a broken package can have thousands (one per line of 200). */
const MAX_ISSUES = 100;

/**
 * Everything the service checks of a package before storing or printing it (docs/templates.md):
 * each file it gives, as Handlebars, markup and CSS (template_invalid), then, only when those pass,
 * the content contract over the reference invoices (template_incomplete). Pure CPU: it runs on
 * the compute pool with the request's parse.
 */
export function examinePackage(pkg: TemplatePackage): { invalid: TemplateIssue[]; incomplete: TemplateIssue[] } {
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

