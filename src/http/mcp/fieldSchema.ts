import { AppError, validationFailed, type Issue } from '../../errors.js';
import { fieldPathsOf, schemaOfField, type JsonSchema } from './schemaSummary.js';

/** What field_schema needs of a tool: its name and full schemas. */
interface ToolSchemas {
  name: string;
  full: { input: JsonSchema; output?: JsonSchema | undefined };
}

export const FIELD_SCHEMA_TOOL_NAME = 'field_schema';
/** The resources of the full schemas: schema://{tool}/{field} (the input's), schema://{tool}/output/{field}. */
export const SCHEMA_RESOURCE_TEMPLATE = 'schema://{tool}/{field}';

/**
 * The free tool that gives the full JSON Schema of a field tools/list summarises (a theme, label
 * overrides, national fields): the summaries keep the tool list small, this keeps nothing hidden.
 */
export const FIELD_SCHEMA_TOOL = {
  name: FIELD_SCHEMA_TOOL_NAME,
  title: 'Full JSON Schema of a field',
  description:
    "Returns the full JSON Schema of one field of a tool's input (or output) that tools/list shows summarised; free. Omit field for the whole input schema.",
  inputSchema: {
    type: 'object' as const,
    properties: {
      tool: { type: 'string', description: 'A tool name, e.g. v1_invoice_pdf.' },
      field: { type: 'string', description: 'A path as the summary names it: theme, line_items[], invoices[].labels.' },
      of: { enum: ['input', 'output'], default: 'input' },
    },
    required: ['tool'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object' as const,
    anyOf: [
      {
        type: 'object',
        properties: { tool: { type: 'string' }, field: { type: 'string' }, schema: { type: 'object' } },
        required: ['tool', 'schema'],
      },
      { type: 'object', required: ['error'] },
    ],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/** field_schema's arguments, checked by hand: this tool is not an operation row (no valibot schema of its own). */
function argumentsOf(args: Record<string, unknown>): { tool: string; field?: string; of: 'input' | 'output' } {
  const issues: Issue[] = [];
  for (const key of Object.keys(args))
    if (!['tool', 'field', 'of'].includes(key))
      issues.push({ path: key, code: 'unknown_property', message: 'Unknown property.' });
  if (typeof args.tool !== 'string')
    issues.push({ path: 'tool', code: 'invalid_type', message: 'Required: a tool name.' });
  if (args.field !== undefined && typeof args.field !== 'string')
    issues.push({ path: 'field', code: 'invalid_type', message: 'A field path (string).' });
  if (args.of !== undefined && args.of !== 'input' && args.of !== 'output')
    issues.push({ path: 'of', code: 'invalid_value', message: 'input or output.' });
  if (issues.length) throw validationFailed(issues);
  return {
    tool: args.tool as string,
    ...(args.field === undefined ? {} : { field: args.field as string }),
    of: (args.of as 'input' | 'output' | undefined) ?? 'input',
  };
}

/** The full schema field_schema answers; an unknown tool or field is a not_found naming what exists. */
export function fieldSchemaOf(tools: readonly ToolSchemas[], args: Record<string, unknown>) {
  const { tool: name, field, of } = argumentsOf(args);
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new AppError('not_found', `No tool named ${name}; tools/list names them.`);
  const whole = of === 'input' ? tool.full.input : tool.full.output;
  if (!whole) throw new AppError('not_found', `${name} answers a file, not JSON: it has no output schema.`);
  const { $schema: _dialect, ...plain } = whole;
  if (field === undefined) return { tool: name, schema: plain };
  const schema = schemaOfField(whole, field);
  if (!schema) {
    const known = fieldPathsOf(whole).filter((path) => !path.includes('.') || path.split('.').length <= 2);
    throw new AppError(
      'not_found',
      `${name} has no ${of} field ${field}; its fields include ${known.slice(0, 40).join(', ')}.`,
    );
  }
  return { tool: name, field, schema };
}

/** A schema resource's URI, and back: schema://v1_invoice_pdf/theme, schema://v1_invoice_validate/output/lines[]. */
export const schemaResourceUri = (tool: string, field: string, of: 'input' | 'output' = 'input') =>
  `schema://${tool}/${of === 'output' ? 'output/' : ''}${field}`;

export function fieldOfResourceUri(uri: string): { tool: string; field?: string; of: 'input' | 'output' } | undefined {
  const match = /^schema:\/\/([A-Za-z0-9_]+)(?:\/(output))?(?:\/(.+))?$/.exec(uri);
  if (!match) return undefined;
  return {
    tool: match[1]!,
    ...(match[3] ? { field: decodeURIComponent(match[3]) } : {}),
    of: match[2] ? 'output' : 'input',
  };
}
