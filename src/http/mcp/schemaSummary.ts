/**
 * The JSON Schemas MCP advertises, summarised to fit a byte budget: the full schema of a request is
 * 55-86 KB (a theme, label overrides and the party shape written out three times), more than an
 * agent host keeps of a whole tool list. A summary only ever loosens the full schema (it drops
 * checks, never adds one), so whatever it accepts the server still validates in full on the compute
 * pool, and a summarised field's full schema stays available (fieldSchema.ts).
 */
export type JsonSchema = Record<string, unknown>;

export interface SchemaSummary {
  schema: JsonSchema;
  /** The fields replaced by a one-line stub, as paths (`theme`, `invoices[].labels`). */
  summarised: string[];
  /** Every required field is still written out (no stub hides what every call must send). */
  requiredShown: boolean;
}

/** Patterns longer than this (the control-character guard on every text) are left to the server. */
const LONGEST_PATTERN = 40;
const LONGEST_ENUM = 16;
/** Subtrees smaller than this are neither shared in $defs nor stubbed: it would save nothing. */
const SMALLEST_SHARED = 160;
const SMALLEST_STUB = 120;

/** How a description names the tool whose schema this part repeats (sharedSchemas.ts); kept whole in every summary. */
export const SAME_AS = 'Same as ';

const STUB_NOTE = 'Summarised here (field_schema gives each in full):';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The first sentence of a description ("e.g." is no end), at most `max` characters (cut at a word, with an ellipsis). */
function firstSentence(text: string, max: number): string {
  const end = text.search(/(?<!\be\.g|\bi\.e)\.(\s+[A-Z(]|\s*$)/);
  const sentence = end === -1 ? text : text.slice(0, end + 1);
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[,;:]$/, '')}…`;
}

/**
 * The schema without what costs bytes and helps an agent little: the draft's $schema, long
 * patterns, long enums (named in the description instead), long descriptions (first sentence;
 * nested fields shorter than top-level ones).
 */
/** How much of the descriptions a summary keeps: characters at the top level and below it (0: none). */
interface Detail {
  top: number;
  nested: number;
  /** Keep lengths, bounds and defaults. */
  limits: boolean;
  /** Keep patterns, formats and closed objects (additionalProperties: false). */
  shapes: boolean;
}

/** The detail levels a summary goes through, from the most to the least. */
const DETAILS: readonly Detail[] = [
  { top: 110, nested: 60, limits: true, shapes: true },
  { top: 70, nested: 0, limits: true, shapes: true },
  { top: 40, nested: 0, limits: false, shapes: true },
  { top: 0, nested: 0, limits: false, shapes: false },
];
const LIMITS = new Set([
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
  'default',
]);

function compactSchema(schema: JsonSchema, detail: Detail = DETAILS[0]!, depth = 0): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || (!detail.limits && LIMITS.has(key))) continue;
    if (
      !detail.shapes &&
      (key === 'pattern' || key === 'format' || (key === 'additionalProperties' && value === false))
    )
      continue;
    if (key === 'pattern' && typeof value === 'string' && value.length > LONGEST_PATTERN) continue;
    if (key === 'enum' && Array.isArray(value) && value.length > LONGEST_ENUM) continue;
    if (key === 'description' && typeof value === 'string') {
      if (value.startsWith(SAME_AS)) {
        out.description = value;
        continue;
      }
      const max = depth <= 1 ? detail.top : detail.nested;
      if (max > 0) out.description = firstSentence(value, max);
      continue;
    }
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [
          name,
          compactSchema(child, detail, depth + 1),
        ]),
      );
      continue;
    }
    if ((key === 'items' || key === 'additionalProperties') && value && typeof value === 'object') {
      out[key] = compactSchema(value as JsonSchema, detail, depth + 1);
      continue;
    }
    if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((option: JsonSchema) => compactSchema(option, detail, depth));
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** A field's node in a schema tree, with where it hangs. */
interface FieldNode {
  path: string;
  node: JsonSchema;
  holder: Record<string, JsonSchema>;
  key: string;
  required: boolean;
}

/** Every field below the root: object properties (`a.b`) and array items (`a[]`), through anyOf options. */
function fieldsOf(schema: JsonSchema, prefix = ''): FieldNode[] {
  const fields: FieldNode[] = [];
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  for (const [key, node] of Object.entries(properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    fields.push({ path, node, holder: properties!, key, required: required.has(key) });
    fields.push(...fieldsOf(node, path));
  }
  const items = schema.items as JsonSchema | undefined;
  if (items && typeof items === 'object' && !Array.isArray(items)) {
    const path = `${prefix}[]`;
    fields.push({ path, node: items, holder: schema as Record<string, JsonSchema>, key: 'items', required: true });
    fields.push(...fieldsOf(items, path));
  }
  for (const option of (schema.anyOf as JsonSchema[] | undefined) ?? []) fields.push(...fieldsOf(option, prefix));
  return fields;
}

/**
 * A stand-in for a field: its type, its values when it takes one of a few (an e-invoice's `profile`:
 * an agent cannot guess them, and a stub without them would cost a field_schema call before every
 * first call), and what it is (the root's description names it as summarised).
 */
function stubOf(node: JsonSchema): JsonSchema {
  const types = node.type ?? (node.anyOf as JsonSchema[] | undefined)?.map((option) => option.type).filter(Boolean);
  return {
    ...(Array.isArray(node.enum) ? { enum: node.enum } : {}),
    ...(types && (!Array.isArray(types) || types.length) ? { type: types } : {}),
    ...(typeof node.description === 'string' ? { description: node.description } : {}),
  };
}

/** The summary's root names its stubs once, instead of a note in each. */
function withStubsNamed(schema: JsonSchema, summarised: readonly string[]): JsonSchema {
  if (!summarised.length) return schema;
  const note = `${STUB_NOTE} ${summarised.join(', ')}.`;
  const description = typeof schema.description === 'string' ? `${schema.description} ${note}` : note;
  return { ...schema, description };
}

/**
 * Subtrees written out more than once (the party shape of seller, buyer and ship_to) moved to
 * $defs once and referenced, named after the first field that has them.
 */
function shareRepeated(schema: JsonSchema): JsonSchema {
  const tree = structuredClone(schema);
  const seen = new Map<string, FieldNode[]>();
  for (const field of fieldsOf(tree)) {
    if (!field.node.properties && !field.node.items) continue;
    const { description: _description, ...shape } = field.node;
    const text = JSON.stringify(shape);
    if (text.length < SMALLEST_SHARED) continue;
    seen.set(text, [...(seen.get(text) ?? []), field]);
  }
  const defs: Record<string, JsonSchema> = {};
  // Largest first, so that a shared subtree inside another shared one is not referenced twice.
  const repeated = [...seen].filter(([, fields]) => fields.length > 1).sort(([a], [b]) => b.length - a.length);
  for (const [text, fields] of repeated) {
    const live = fields.filter(({ holder, key, node }) => holder[key] === node);
    if (live.length < 2) continue;
    const name = live[0]!.path.replace(/\[\]/g, '_item').replace(/\./g, '_');
    defs[name] = JSON.parse(text) as JsonSchema;
    for (const { holder, key, node } of live)
      // The type beside the reference: clients that do not resolve $ref (the Inspector's CLI) still see an object.
      holder[key] = {
        ...(node.type ? { type: node.type } : {}),
        $ref: `#/$defs/${name}`,
        ...(node.description ? { description: node.description } : {}),
      };
  }
  return Object.keys(defs).length ? { ...tree, $defs: defs } : tree;
}

/**
 * Every summary of a schema from the largest to the smallest: compacted with repeated subtrees
 * shared, then one field after another replaced by a stub, the field that saves the most first
 * (optional fields before required ones), until nothing is left to stub or the summary is at most
 * `floorBytes`. The order does not depend on a budget, so one ladder serves every budget.
 */
export function summaryLadder(full: JsonSchema, floorBytes: number): (SchemaSummary & { bytes: number })[] {
  const summarised: string[] = [];
  let requiredShown = true;
  const ladder: (SchemaSummary & { bytes: number })[] = [];
  for (const [level, detail] of DETAILS.entries()) {
    const tree = compactSchema(full, detail);
    for (const path of summarised) {
      const field = fieldsOf(tree).find((candidate) => candidate.path === path);
      if (field) field.holder[field.key] = stubOf(field.node);
    }
    // Only stubs that save much at the first levels (less detail everywhere saves more first), and
    // a required field (seller, line_items: what every call needs) only when nothing else is left.
    const last = level === DETAILS.length - 1;
    for (;;) {
      const schema = withStubsNamed(shareRepeated(tree), summarised);
      const bytes = bytesOf(schema);
      ladder.push({ schema, summarised: [...summarised], requiredShown, bytes });
      if (bytes <= floorBytes) return ladder;
      const group = fieldsToStub(tree, summarised, last ? 1 : 150, last);
      if (!group.length) break;
      if (group.some((field) => field.required)) requiredShown = false;
      for (const field of group) {
        field.holder[field.key] = stubOf(field.node);
        summarised.push(field.path);
      }
    }
  }
  // The last resort: the schema as one stub naming its fields (an answer can be read without it).
  const properties = Object.keys((full.properties as Record<string, unknown> | undefined) ?? {});
  const root = { type: 'object', description: `${STUB_NOTE} ${properties.join(', ')}.` };
  ladder.push({ schema: root, summarised: [''], requiredShown: false, bytes: bytesOf(root) });
  return ladder;
}

/** The largest summary of the ladder within `targetBytes` (the smallest one when none is). */
export const summaryWithin = <T extends { bytes: number }>(ladder: readonly T[], targetBytes: number): T =>
  ladder.find((rung) => rung.bytes <= targetBytes) ?? ladder[ladder.length - 1]!;

const within = (path: string, parent: string) => path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);

/**
 * The fields to stub next: the one that saves the most (optional before required), with the fields
 * of the same name and shape elsewhere (buyer.vat_id with seller.vat_id), so that what $defs
 * shares stays shared.
 */
function fieldsToStub(
  tree: JsonSchema,
  summarised: readonly string[],
  smallestSaving: number,
  required: boolean,
): FieldNode[] {
  const candidates = fieldsOf(tree).filter(
    (field) =>
      field.holder[field.key] === field.node &&
      (required || !field.required) &&
      !summarised.some((path) => path === field.path || within(field.path, path)) &&
      bytesOf(field.node) >= SMALLEST_STUB,
  );
  const groupOf = (field: FieldNode) => {
    const { description: _description, ...shape } = field.node;
    return `${field.key}|${JSON.stringify(shape)}`;
  };
  const groups = new Map<string, FieldNode[]>();
  for (const field of candidates) groups.set(groupOf(field), [...(groups.get(groupOf(field)) ?? []), field]);
  const saving = (group: FieldNode[]) => bytesOf(group[0]!.node) - bytesOf(stubOf(group[0]!.node));
  const ranked = [...groups.values()]
    .filter((group) => saving(group) >= smallestSaving)
    .sort(
      (a, b) =>
        Number(a.some((field) => field.required)) - Number(b.some((field) => field.required)) ||
        saving(b) - saving(a) ||
        a[0]!.path.length - b[0]!.path.length,
    );
  return ranked[0] ?? [];
}

/** The full schema of one field (`theme`, `line_items[]`, `invoices[].labels`), or undefined. */
export function schemaOfField(full: JsonSchema, path: string): JsonSchema | undefined {
  const found = fieldsOf(full).find((field) => field.path === path);
  return found?.node;
}

/** The paths of a schema's fields (what field_schema accepts), for its error message. */
export const fieldPathsOf = (full: JsonSchema): string[] => [...new Set(fieldsOf(full).map((field) => field.path))];
