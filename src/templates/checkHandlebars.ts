import Handlebars from 'handlebars';
import { issueAt, type TemplateFile, type TemplateIssue } from './templateIssue.js';

/**
 * The Handlebars rules of a package file, read from its syntax tree (Handlebars.parse; nothing is
 * compiled or run here):
 *  - it parses;
 *  - `{{ }}` only: triple-stash and `{{& }}` would print request text as markup (the service's own
 *    markup, such as the QR code's SVG, is a SafeString in the view and prints with `{{ }}`);
 *  - only the helpers the service compiles with (`if`, `unless`, `each`, `with`): `lookup` reads
 *    any property by a name, `log` writes to our log;
 *  - only partials the service has (templates/partials/) or the package itself overrides, by a
 *    literal name, and no decorators (inline partials included);
 *  - no step of a path that walks prototypes (`constructor`, `__proto__`, …), which Handlebars'
 *    own runtime guard would also stop, refused here with its place.
 */
const KNOWN_HELPERS = new Set(['if', 'unless', 'each', 'with']);
const PROTOTYPE_STEPS = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
]);

type Node = hbs.AST.Node & { loc?: hbs.AST.SourceLocation };

export function checkHandlebars(file: TemplateFile, source: string, partialNames: ReadonlySet<string>): TemplateIssue[] {
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(source);
  } catch (error) {
    return [syntaxIssue(file, error)];
  }
  const issues: TemplateIssue[] = [];
  const at = (node: Node) => (node.loc ? { line: node.loc.start.line, column: node.loc.start.column + 1 } : undefined);
  const add = (node: Node, code: string, message: string) => issues.push(issueAt(file, code, message, at(node)));

  const visitor = new Handlebars.Visitor();
  const checkCall = (node: hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression) => {
    const head = node.path;
    if (head.type !== 'PathExpression') {
      add(node, 'unknown_helper', 'only a field or one of the helpers if, unless, each, with can be called');
      return;
    }
    const name = (head as hbs.AST.PathExpression).original;
    const called = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0 || node.type === 'SubExpression';
    if (called && !KNOWN_HELPERS.has(name))
      add(node, 'unknown_helper', `"${name}" is not a helper of this service (if, unless, each, with)`);
  };
  visitor.PathExpression = (path) => {
    const step = path.parts.find((part) => PROTOTYPE_STEPS.has(part));
    if (step !== undefined)
      add(path as Node, 'prototype_access', `"${path.original}" walks the prototype ("${step}"), which is not data`);
  };
  const visitMustache = visitor.MustacheStatement.bind(visitor);
  visitor.MustacheStatement = (node) => {
    if (!node.escaped)
      add(node as Node, 'triple_stash', 'prints without escaping: use {{ }} (request text must stay text)');
    checkCall(node);
    visitMustache(node);
  };
  const visitBlock = visitor.BlockStatement.bind(visitor);
  visitor.BlockStatement = (node) => {
    checkCall(node);
    visitBlock(node);
  };
  const visitSub = visitor.SubExpression.bind(visitor);
  visitor.SubExpression = (node) => {
    checkCall(node);
    visitSub(node);
  };
  const partial = (node: hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement) => {
    const name = node.name.type === 'PathExpression' ? (node.name as hbs.AST.PathExpression).original : undefined;
    if (name === undefined) add(node as Node, 'unknown_partial', 'a partial is named by a literal name');
    else if (!partialNames.has(name)) add(node as Node, 'unknown_partial', `"${name}" is not a partial of this service`);
  };
  const visitPartial = visitor.PartialStatement.bind(visitor);
  visitor.PartialStatement = (node) => {
    partial(node);
    visitPartial(node);
  };
  visitor.PartialBlockStatement = (node) => add(node as Node, 'unknown_partial', 'partial blocks are not supported');
  visitor.DecoratorBlock = (node) => add(node as Node, 'decorator', 'decorators (inline partials) are not supported');
  visitor.Decorator = (node) => add(node as Node, 'decorator', 'decorators are not supported');
  visitor.accept(program);
  return issues;
}

/** A parse error's place: Handlebars gives line and column for some, only the line for others. */
function syntaxIssue(file: TemplateFile, error: unknown): TemplateIssue {
  const { message, lineNumber, column } = error as { message?: string; lineNumber?: number; column?: number };
  const text = String(message ?? error);
  const line = lineNumber ?? Number(/on line (\d+)/.exec(text)?.[1] ?? NaN);
  const place = Number.isFinite(line) ? { line, column: (column ?? 0) + 1 } : undefined;
  return issueAt(file, 'handlebars_syntax', text.split('\n')[0]!.replace(/ - \d+:\d+$/, ''), place);
}
