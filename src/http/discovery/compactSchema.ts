/**
 * The body schema carried inside the 402 challenge (the bazaar discovery extension). The full
 * JSON Schema of an invoice is about 20 KB: inline in PAYMENT-REQUIRED it would overflow the
 * 16 KiB header limit of Node's HTTP client and most proxies, and clients echo the challenge back
 * in PAYMENT-SIGNATURE. So the challenge carries the required top-level fields with their types
 * and points to the OpenAPI document for the rest.
 */
export function compactBodySchema(schema: Record<string, unknown>, fullSchemaUrl: string): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = ((schema.required ?? []) as string[]).filter((key) => key in properties);
  return {
    type: 'object',
    description: `Required fields only; all fields and limits: ${fullSchemaUrl}`,
    required,
    properties: Object.fromEntries(required.map((key) => [key, { type: properties[key]?.type ?? 'object' }])),
  };
}

/**
 * The example body carried inside the 402 challenge, for the same reason: a client echoes the
 * challenge's extensions into PAYMENT-SIGNATURE, which must stay under 4 KB for nginx's default
 * header buffers. Only the required fields of the example, each array cut to its first element.
 */
export function compactExample(example: unknown, schema: Record<string, unknown>): unknown {
  if (!example || typeof example !== 'object' || Array.isArray(example)) return example;
  const required = new Set((schema.required ?? []) as string[]);
  const entries = Object.entries(example as Record<string, unknown>).filter(([key]) => required.has(key));
  return Object.fromEntries(entries.map(([key, value]) => [key, Array.isArray(value) ? value.slice(0, 1) : value]));
}
