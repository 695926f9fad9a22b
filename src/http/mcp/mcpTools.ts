import type * as v from 'valibot';
import { jsonSchemaOf } from '../../invoice/fieldNotes.js';
import { isPaid, type PricedOperation } from '../../operations/operation.js';
import { FIELD_SCHEMA_TOOL } from './fieldSchema.js';
import { summaryLadder, summaryWithin, type JsonSchema, type SchemaSummary } from './schemaSummary.js';
import { referToHomes, type SchemaHome } from './sharedSchemas.js';
import { toolDescription, toolTitle } from './toolText.js';

/** What tools/list shows of a tool (MCP Tool). */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  _meta?: Record<string, unknown>;
}

/**
 * An MCP tool: one per operation of the route table (invoices, e-invoices, helpers), named after
 * its operationId, listed with summarised schemas; the full ones stay here for field_schema.
 */
export interface McpTool extends ListedTool {
  route: PricedOperation;
  full: { input: JsonSchema; output?: JsonSchema | undefined };
  /** The fields tools/list shows as a stub (field_schema and the schema:// resources give them in full). */
  summarised: { input: string[]; output: string[] };
}

/**
 * tools/list of the default configuration, in all and per tool (the JSON of the tools array). The
 * summaries keep every closed choice (the e-invoice tools' `profile` enum, schemaSummary.ts) and
 * shorten descriptions instead, so 20 tools fit in 32 KiB.
 */
export const TOOL_LIST_BUDGET_BYTES = 32 * 1024;
export const TOOL_BUDGET_BYTES = 4 * 1024;
/** What the summaries aim at: below the budgets, so that a longer price or name cannot break them. */
const LIST_TARGET_BYTES = TOOL_LIST_BUDGET_BYTES - 1536;
const TOOL_TARGET_BYTES = TOOL_BUDGET_BYTES - 128;
/** Below this a tool's schemas would say nothing useful; a tool list that needs less fails its test. */
const SMALLEST_TOOL_BYTES = 900;

const isToolRoute = (route: PricedOperation) => route.mcpTool ?? (route.tag === 'Invoices' || route.tag === 'Helpers');

/**
 * What a file-producing tool answers in structuredContent, beside the file as an embedded resource
 * (sha256: of the file, what a receipt paid for; uri: content[0].resource.uri).
 */
const FILE_OUTPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    fileName: { type: 'string' },
    contentType: { type: 'string' },
    bytes: { type: 'integer' },
    sha256: { type: 'string' },
    pages: { type: 'integer' },
    uri: { type: 'string' },
  },
  required: ['fileName', 'contentType', 'bytes', 'uri'],
};

/**
 * structuredContent of a refused call (isError): the API's error body, { error: { code, message,
 * issues?, retry_after_seconds? } }, or for a paid tool the x402 PaymentRequired or failed
 * settlement ({ x402Version, ... }). The server instructions describe both once.
 */
const ERROR_SCHEMA: JsonSchema = { type: 'object', required: ['error'] };
const PAYMENT_SCHEMA: JsonSchema = { type: 'object', required: ['x402Version'] };

const fullSchemas = new WeakMap<v.GenericSchema, JsonSchema>();
type Ladder = (SchemaSummary & { bytes: number })[];
const ladders = new Map<string, Ladder>();
/** The full JSON Schema of a valibot schema and its summaries, made once per process (the schemas are module constants). */
function fullSchemaOf(schema: v.GenericSchema): JsonSchema {
  let full = fullSchemas.get(schema);
  if (!full) fullSchemas.set(schema, (full = jsonSchemaOf(schema)));
  return full;
}
function ladderOf(schema: JsonSchema): Ladder {
  const key = JSON.stringify(schema);
  let ladder = ladders.get(key);
  if (!ladder) ladders.set(key, (ladder = summaryLadder(schema, 200)));
  return ladder;
}

/**
 * The schemas each tool lists before summaries: what another tool's input already has, named
 * (sharedSchemas.ts). Free tools are the homes first, so the invoice is written out where an agent
 * checks it for free (v1_invoice_validate) and the paid tools name it.
 */
function sharedSchemasOf(routes: readonly PricedOperation[]) {
  const homes: SchemaHome[] = [];
  const shared = new Map<string, { input?: JsonSchema; output?: JsonSchema }>();
  const named = new Set<string>();
  const freeFirst = [...routes].sort((a, b) => Number(isPaid(a)) - Number(isPaid(b)));
  for (const route of freeFirst) {
    if (!route.request) continue;
    const full = fullSchemaOf(route.request.schema);
    const { schema, whole, named: homesNamed } = referToHomes(full, homes);
    for (const home of homesNamed) named.add(home);
    shared.set(route.operationId, { input: schema });
    if (!whole) homes.push({ tool: route.operationId, input: full });
  }
  for (const route of routes) {
    if (!route.response.schema) continue;
    const { schema, named: homesNamed } = referToHomes(fullSchemaOf(route.response.schema), homes);
    for (const home of homesNamed) named.add(home);
    shared.set(route.operationId, { ...shared.get(route.operationId), output: schema });
  }
  return { shared, named };
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Every structuredContent a tool can answer: its result, or (isError) an error body or, when paid,
 * the payment's. MCP wants an object schema at the top, and clients validate errors too; shared
 * definitions stay at the root, where their references point.
 */
function outputOf(result: JsonSchema, paid: boolean): JsonSchema & { type: 'object' } {
  const { $defs, ...schema } = result;
  return {
    type: 'object',
    anyOf: [schema, ERROR_SCHEMA, ...(paid ? [PAYMENT_SCHEMA] : [])],
    ...($defs ? { $defs } : {}),
  };
}

/**
 * The input's summary within `targetBytes`, but never one that stubs a required field (seller,
 * line_items, a batch's invoices) while a larger rung still writes them all out: an agent cannot
 * call a tool whose required arguments it cannot see. The list's cap search (mcpTools) pays for it
 * with less detail in the other tools.
 */
function requiredShownWithin(ladder: Ladder, targetBytes: number): Ladder[number] {
  const chosen = summaryWithin(ladder, targetBytes);
  return chosen.requiredShown ? chosen : (ladder.findLast((rung) => rung.requiredShown) ?? chosen);
}

/** One operation's tool entry, its schemas summarised to fit `capBytes` (the output first, in at most a quarter). */
function toolWithin(
  route: PricedOperation,
  shared: { input?: JsonSchema; output?: JsonSchema } | undefined,
  capBytes: number,
): ListedTool & Pick<McpTool, 'summarised'> {
  const paid = isPaid(route);
  const json = route.response.contentType.startsWith('application/json');
  const inputLadder = shared?.input
    ? ladderOf(shared.input)
    : [{ schema: { type: 'object', additionalProperties: false }, summarised: [], requiredShown: true, bytes: 45 }];
  const outputLadder = !json
    ? [{ schema: FILE_OUTPUT_SCHEMA, summarised: [], requiredShown: true, bytes: bytesOf(FILE_OUTPUT_SCHEMA) }]
    : shared?.output
      ? ladderOf(shared.output)
      : [
          {
            schema: { type: 'object', description: route.response.description },
            summarised: [],
            requiredShown: true,
            bytes: 60,
          },
        ];
  const base = {
    name: route.operationId,
    title: toolTitle(route),
    description: toolDescription(route),
    // A PUT stores something (a theme), idempotently: the same body, the same id.
    annotations: { readOnlyHint: route.method !== 'PUT', idempotentHint: true, openWorldHint: false },
    ...(paid ? { _meta: { 'x402/price': { amount: route.priceUsd, currency: 'USD' } } } : {}),
  };
  const left = capBytes - bytesOf({ ...base, inputSchema: {}, outputSchema: outputOf({}, paid) });
  const output = summaryWithin(outputLadder, Math.floor(left / 4));
  const input = requiredShownWithin(inputLadder, left - output.bytes);
  return {
    ...base,
    inputSchema: input.schema as ListedTool['inputSchema'],
    outputSchema: outputOf(output.schema, paid),
    summarised: { input: input.summarised, output: output.summarised },
  };
}

/** What tools/list shows: the entry without what stays on the server. */
export const listed = ({ route: _route, full: _full, summarised: _summarised, ...tool }: McpTool): ListedTool => tool;

/**
 * The MCP tools of the route table within the budgets. A tool whose schema others name (the invoice
 * of v1_invoice_validate) is summarised within the per-tool target; every other tool gets the same
 * cap, the largest under which the whole list (with field_schema) stays within its target, and a
 * tool whose full entry is smaller keeps it whole.
 */
export function mcpTools(routes: readonly PricedOperation[]): McpTool[] {
  const toolRoutes = routes.filter(isToolRoute);
  // The entries are plain data of the rows' data; each app's own rows (their handlers) re-attached.
  const key = dataKeyOf(toolRoutes);
  let entries = madeBefore.get(key);
  if (!entries) {
    entries = summarisedTools(toolRoutes).map(({ route: _route, ...entry }) => entry);
    if (madeBefore.size >= MADE_BEFORE_LIMIT) madeBefore.delete(madeBefore.keys().next().value!);
    madeBefore.set(key, entries);
  }
  return entries.map((entry, i) => ({ ...entry, route: toolRoutes[i]! }));
}

/**
 * The tools already summarised in this process, by the data of their rows: every app of a test
 * process (and each replica's) built the same list again, 0.12-0.19 s of CPU an app (most of an
 * app's start once its imports are done). A few keys, as a test may price the rows several ways.
 */
const madeBefore = new Map<string, Omit<McpTool, 'route'>[]>();
const MADE_BEFORE_LIMIT = 8;

/**
 * What the tool entries are made of: every field of the rows but their functions (only whether
 * there is one: priceOf says "per invoice") and their valibot schemas (by identity: module
 * constants, whose JSON Schemas fullSchemaOf keeps once per process).
 */
function dataKeyOf(routes: readonly PricedOperation[]): string {
  return JSON.stringify(routes, (_key, value: unknown) => {
    if (typeof value === 'function') return 'function';
    if (value !== null && typeof value === 'object' && '~standard' in value) return `schema ${idOf(value)}`;
    return value;
  });
}
const schemaIds = new WeakMap<object, number>();
let schemasSeen = 0;
function idOf(schema: object): number {
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = schemasSeen++));
  return id;
}

function summarisedTools(toolRoutes: readonly PricedOperation[]): McpTool[] {
  const { shared, named } = sharedSchemasOf(toolRoutes);
  const capOf = (route: PricedOperation, cap: number) => (named.has(route.operationId) ? TOOL_TARGET_BYTES : cap);
  const entryBytes = (route: PricedOperation, cap: number) =>
    bytesOf(
      listed({ ...toolWithin(route, shared.get(route.operationId), capOf(route, cap)), route, full: { input: {} } }),
    );
  const listBytes = (cap: number) =>
    toolRoutes.reduce((sum, route) => sum + entryBytes(route, cap) + 1, bytesOf(FIELD_SCHEMA_TOOL) + 2);
  let low = SMALLEST_TOOL_BYTES;
  let high = TOOL_TARGET_BYTES;
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    if (listBytes(cap) <= LIST_TARGET_BYTES) low = cap;
    else high = cap - 1;
  }
  return toolRoutes.map((route) => ({
    ...toolWithin(route, shared.get(route.operationId), capOf(route, low)),
    route,
    full: {
      input: route.request ? fullSchemaOf(route.request.schema) : { type: 'object' },
      output: route.response.schema ? fullSchemaOf(route.response.schema) : undefined,
    },
  }));
}
