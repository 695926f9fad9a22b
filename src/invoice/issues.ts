import * as v from 'valibot';
import { validationFailed, type Issue } from '../errors.js';

/** Turns valibot issues into { path, code, message } with paths like "line_items[3].quantity". */
export function toIssues(issues: readonly v.BaseIssue<unknown>[]): Issue[] {
  return issues.flatMap(optionIssues).map(({ issue, keys }) => {
    const unknownKey = issue.type.startsWith('strict_') && issue.input !== undefined && issue.expected === 'never';
    const missing = issue.input === undefined && issue.kind === 'schema';
    return {
      path: formatPath(keys),
      code: missing ? 'required' : unknownKey ? 'unknown_property' : (CODES[issue.type] ?? 'invalid'),
      message: missing ? 'is required' : unknownKey ? 'is not a known property' : issue.message,
    };
  });
}

/**
 * A union (the invoice's theme: an id or an object) answers with the issues of the option the input
 * has the type of, at their full paths ("theme.colors.accent"), rather than one "invalid" for the
 * union; only when the input has none of the options' types does the union's own message stand.
 */
function optionIssues(issue: v.BaseIssue<unknown>): { issue: v.BaseIssue<unknown>; keys: (string | number)[] }[] {
  const keys = (issue.path ?? []).map((item) => item.key as string | number);
  if (issue.type !== 'union' || !issue.issues) return [{ issue, keys }];
  // valibot gives an option's issues paths relative to the union's input.
  const own = issue.issues.filter(
    (sub) => !(sub.kind === 'schema' && (sub.path ?? []).length === 0 && sub.input === issue.input),
  );
  if (own.length === 0) return [{ issue, keys }];
  return own.flatMap(optionIssues).map((sub) => ({ issue: sub.issue, keys: [...keys, ...sub.keys] }));
}

function formatPath(keys: readonly (string | number)[]): string {
  let path = '';
  for (const key of keys) {
    if (typeof key === 'number') path += `[${key}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) path += path ? `.${key}` : key;
    else path += `[${JSON.stringify(key)}]`;
  }
  return path;
}

const CODES: Record<string, string> = {
  string: 'invalid_type',
  number: 'invalid_type',
  boolean: 'invalid_type',
  array: 'invalid_type',
  object: 'invalid_type',
  strict_object: 'invalid_type',
  picklist: 'invalid_value',
  min_length: 'too_short',
  max_length: 'too_long',
  min_value: 'too_small',
  gt_value: 'too_small',
  max_value: 'too_big',
  finite: 'invalid_number',
  integer: 'not_integer',
  regex: 'invalid_format',
  email: 'invalid_email',
  url: 'invalid_url',
  check: 'invalid_value',
  partial_check: 'invalid_value',
};

/** A request body checked against its schema: the parsed value, or InputRejected with every issue. */
export function parseOrReject<TSchema extends v.GenericSchema>(schema: TSchema, body: unknown): v.InferOutput<TSchema> {
  const parsed = v.safeParse(schema, body, { abortEarly: false });
  if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
  return parsed.output;
}
