import { SAME_AS, type JsonSchema } from './schemaSummary.js';

/**
 * Schemas one tool shares with another, said once: the invoice is the input of eight tools (the
 * PDF, the e-invoices, validate, and inside the batch and the timesheet's answer), and a tool list
 * that spelled it out in each would be eight times its size. A tool whose input repeats another's
 * (a "home", a free tool when there is one, so that an agent reads it where it checks for free)
 * names that tool instead; a larger subtree equal to one of a home's fields names that field. Only
 * ever a loosening: the server validates the full schema.
 */
export interface SchemaHome {
  tool: string;
  input: JsonSchema;
}

/** Shared subtrees below this size are written out: a reference would save little. */
const SMALLEST_REFERENCED = 400;

const shapeText = ({ description: _description, $schema: _dialect, ...shape }: JsonSchema) => JSON.stringify(shape);
const named = (tool: string, path: string) => (path ? `${tool}'s ${path}` : `${tool}'s arguments`);

/** A home's subtrees by their shape: the root and every field large enough to refer to. */
function indexOf(homes: readonly SchemaHome[]): Map<string, { tool: string; where: string }> {
  const index = new Map<string, { tool: string; where: string }>();
  const visit = (tool: string, node: JsonSchema, path: string) => {
    const text = shapeText(node);
    if (text.length < SMALLEST_REFERENCED) return;
    if (!index.has(text)) index.set(text, { tool, where: named(tool, path) });
    for (const [key, child] of Object.entries((node.properties as Record<string, JsonSchema> | undefined) ?? {}))
      visit(tool, child, path ? `${path}.${key}` : key);
    if (node.items && typeof node.items === 'object') visit(tool, node.items as JsonSchema, `${path}[]`);
  };
  for (const home of homes) visit(home.tool, home.input, '');
  return index;
}

/** A home's properties a stand-in still lists (by type only): all of a few, else the required ones. */
const LISTED_PROPERTIES = 8;

/** A stand-in naming where the schema is written out, keeping the node's type and its properties by type. */
function referenceTo(node: JsonSchema, where: string): JsonSchema {
  const required = node.required as string[] | undefined;
  const properties = Object.entries((node.properties as Record<string, JsonSchema> | undefined) ?? {});
  const listed =
    properties.length <= LISTED_PROPERTIES ? properties : properties.filter(([key]) => required?.includes(key));
  return {
    ...(node.type ? { type: node.type } : {}),
    description: `${SAME_AS}${where}.`,
    ...(listed.length
      ? { properties: Object.fromEntries(listed.map(([key, child]) => [key, child.type ? { type: child.type } : {}])) }
      : {}),
    ...(required?.length ? { required } : {}),
  };
}

/**
 * `schema` with what it shares with the homes named instead of repeated; `whole`: the schema as a
 * whole names a home (its tool is then no home itself).
 */
export function referToHomes(
  schema: JsonSchema,
  homes: readonly SchemaHome[],
): { schema: JsonSchema; whole: boolean; named: Set<string> } {
  const referenced = new Set<string>();
  if (!homes.length) return { schema, whole: false, named: referenced };
  const index = indexOf(homes);
  const replace = (node: JsonSchema): JsonSchema => {
    const home = index.get(shapeText(node));
    if (home) {
      referenced.add(home.tool);
      return referenceTo(node, home.where);
    }
    const extended = homes.find((candidate) => extendsHome(node, candidate.input));
    if (extended) {
      referenced.add(extended.tool);
      return extension(node, extended);
    }
    const out: JsonSchema = { ...node };
    if (node.properties)
      out.properties = Object.fromEntries(
        Object.entries(node.properties as Record<string, JsonSchema>).map(([key, child]) => [key, replace(child)]),
      );
    if (node.items && typeof node.items === 'object') out.items = replace(node.items as JsonSchema);
    return out;
  };
  const replaced: JsonSchema = { ...replace(schema), type: 'object' };
  const whole = typeof replaced.description === 'string' && replaced.description.startsWith(SAME_AS);
  return { schema: replaced, whole, named: referenced };
}

/**
 * An object with every field of a home's input and more: the home named, its own fields listed. The
 * home's fields are left out, so others are allowed here: the server still refuses unknown ones.
 */
function extension(node: JsonSchema, home: SchemaHome): JsonSchema {
  const homeKeys = new Set(Object.keys(home.input.properties as Record<string, unknown>));
  const { additionalProperties: _closed, description: _description, ...rest } = node;
  return {
    ...rest,
    description: `${SAME_AS}${named(home.tool, '')}, plus the fields listed here.`,
    properties: Object.fromEntries(
      Object.entries(node.properties as Record<string, JsonSchema>).filter(([key]) => !homeKeys.has(key)),
    ),
  };
}

/** Whether `schema` has every field of `home` with the same schema (and more). */
function extendsHome(schema: JsonSchema, home: JsonSchema): boolean {
  const own = schema.properties as Record<string, JsonSchema> | undefined;
  const theirs = home.properties as Record<string, JsonSchema> | undefined;
  if (!own || !theirs || Object.keys(theirs).length < 5) return false;
  return Object.entries(theirs).every(([key, child]) => own[key] && shapeText(own[key]) === shapeText(child));
}
