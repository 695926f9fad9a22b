// Every request example /openapi.json publishes, sent to its own operation as an agent would copy
// it: none may be refused as bad input (a serialized Buffer once was: 400 `xml: must be a string`).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/testApp.js';

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
type Paths = Record<string, Record<string, { requestBody?: { content: Record<string, MediaType> } }>>;

let app: TestApp;
before(async () => {
  app = await startTestApp({ COMPUTE_THREADS: '0' });
});
after(() => app.close());

test('every OpenAPI request example is accepted by its own operation (no 400, 413, 415)', async () => {
  const document = (await (await fetch(`${app.url}/openapi.json`)).json()) as { paths: Paths };
  const sent: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const json = operation.requestBody?.content['application/json'];
      if (!json) continue;
      const examples = json.examples
        ? Object.entries(json.examples).map(([name, { value }]) => [name, value] as const)
        : [['example', json.example] as const];
      for (const [name, example] of examples) {
        assert.notEqual(example, undefined, `${method} ${path} publishes no example`);
        const response = await fetch(`${app.url}${path}`, {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(example),
          signal: AbortSignal.timeout(60_000),
        });
        const answer = await response.text();
        assert.ok(
          ![400, 413, 415].includes(response.status),
          `${method} ${path} (${name}): ${response.status} ${answer.slice(0, 300)}`,
        );
        sent.push(`${method} ${path} ${name} → ${response.status}`);
      }
    }
  }
  // The README's "Trying it" and docs/e-invoices.md take their e-invoice from exactly this place.
  const readmeExample =
    document.paths['/v1/e-invoice/cii.xml']?.post?.requestBody?.content['application/json']?.examples;
  assert.equal(typeof readmeExample?.minimal?.value, 'object', 'examples.minimal.value of /v1/e-invoice/cii.xml');
  // Every operation with a body: the invoice, e-invoice, inbound, batch, helper and theme rows.
  for (const path of ['/v1/invoice.pdf', '/v1/e-invoice/inspect', '/v1/e-invoice/render.pdf', '/v1/late-fee'])
    assert.ok(
      sent.some((line) => line.includes(` ${path} `)),
      `${path} was sent: ${sent.join('; ')}`,
    );
});
