import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CURRENCY_CODES } from '../../src/invoice/currencies.js';
import { EXAMPLE_INVOICE } from '../../src/invoice/example.js';
import { LANGUAGES } from '../../src/invoice/locales.js';
import { postJson, startTestApp, type TestApp } from '../support/testApp.js';
import type { JsonAnswer } from '../support/json.js';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(async () => {
  await app.close();
});

const get = (path: string, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });

async function expectError(response: Response, status: number, code: string) {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  const body = (await response.json()) as {
    error: { code: string; message: string; issues?: { path: string; code: string; message: string }[] };
  };
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 0);
  return body.error;
}

describe('POST /v1/invoice/validate', () => {
  test('answers the computed totals of the example', async () => {
    const response = await postJson(`${app.url}/v1/invoice/validate`, EXAMPLE_INVOICE);
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.valid, true);
    assert.deepEqual(body.currency, { code: 'USD', digits: 2, locale: 'en-US' });
    assert.deepEqual(
      body.lines.map((line: JsonAnswer) => line.amount.minor),
      [640000, 210000, 175000, 4999],
    );
    assert.deepEqual(body.subtotal, { minor: 1029999, decimal: '10299.99', formatted: '$10,299.99' });
    assert.deepEqual(body.discount, { minor: 25000, decimal: '250.00', formatted: '$250.00' });
    assert.deepEqual(body.taxable, { minor: 1004999, decimal: '10049.99', formatted: '$10,049.99' });
    assert.equal(body.tax_rate, '7.5');
    assert.deepEqual(body.tax, { minor: 75375, decimal: '753.75', formatted: '$753.75' }); // 753.749 25 → 753.75
    assert.deepEqual(body.total, { minor: 1080374, decimal: '10803.74', formatted: '$10,803.74' });
    assert.deepEqual(body.lines[2].unit_price, { decimal: '140', formatted: '$140.00' });
    assert.equal(body.lines[2].quantity, '12.5');
  });

  test('lists every issue with its path', async () => {
    const bad = {
      ...EXAMPLE_INVOICE,
      invoice_number: '',
      currency: 'XYZ',
      line_items: [{ description: '', quantity: 0, unit_price: -1, extra: true }],
    };
    const error = await expectError(await postJson(`${app.url}/v1/invoice/validate`, bad), 400, 'validation_failed');
    assert.deepEqual(error.issues?.map((issue) => issue.path).sort(), [
      'currency',
      'invoice_number',
      'line_items[0].description',
      'line_items[0].extra',
      'line_items[0].quantity',
      'line_items[0].unit_price',
    ]);
  });

  test('business rules that need the totals are 400s with their own codes', async () => {
    const discount = await expectError(
      await postJson(`${app.url}/v1/invoice/validate`, { ...EXAMPLE_INVOICE, discount: 1_000_000 }),
      400,
      'discount_exceeds_subtotal',
    );
    assert.equal(discount.issues?.[0]?.path, 'discount');
    const huge = {
      ...EXAMPLE_INVOICE,
      discount: 0,
      line_items: Array(200).fill({ description: 'max', quantity: 1_000_000, unit_price: 999_999_999.99 }),
    };
    const range = await expectError(await postJson(`${app.url}/v1/invoice/validate`, huge), 400, 'amount_out_of_range');
    assert.equal(range.issues?.at(-1)?.path, 'total');
  });

  test('malformed bodies: invalid JSON, non-objects, __proto__, 1e400', async () => {
    await expectError(await postJson(`${app.url}/v1/invoice/validate`, '{"seller":'), 400, 'invalid_json');
    await expectError(await postJson(`${app.url}/v1/invoice/validate`, '123'), 400, 'invalid_json');
    await expectError(await postJson(`${app.url}/v1/invoice/validate`, '"text"'), 400, 'invalid_json');
    const array = await expectError(await postJson(`${app.url}/v1/invoice/validate`, '[]'), 400, 'validation_failed');
    assert.equal(array.issues?.[0]?.code, 'invalid_type');
    const proto = await expectError(
      await postJson(
        `${app.url}/v1/invoice/validate`,
        `{"__proto__":{"x":1},${JSON.stringify(EXAMPLE_INVOICE).slice(1)}`,
      ),
      400,
      'validation_failed',
    );
    assert.equal(proto.issues?.[0]?.code, 'forbidden_property');
    const infinite = JSON.stringify(EXAMPLE_INVOICE).replace('"tax_rate":7.5', '"tax_rate":1e400');
    const issue = await expectError(
      await postJson(`${app.url}/v1/invoice/validate`, infinite),
      400,
      'validation_failed',
    );
    assert.equal(issue.issues?.[0]?.path, 'tax_rate');
    const empty = await expectError(await postJson(`${app.url}/v1/invoice/validate`, ''), 400, 'validation_failed');
    assert.ok((empty.issues?.length ?? 0) >= 5, 'every required field is listed');
  });

  test('wrong content type is 415; a body over the limit is 413', async () => {
    const text = await fetch(`${app.url}/v1/invoice/validate`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    await expectError(text, 415, 'unsupported_media_type');
    const none = await fetch(`${app.url}/v1/invoice/validate`, { method: 'POST' });
    await expectError(none, 415, 'unsupported_media_type');
    const big = JSON.stringify({ ...EXAMPLE_INVOICE, notes: 'x'.repeat(1024 * 1024) });
    await expectError(await postJson(`${app.url}/v1/invoice/validate`, big), 413, 'payload_too_large');
  });

  test('the 1 MiB body limit fits 200 maximal line items with every character escaped', async () => {
    const escaped = (length: number) => '\\u20ac'.repeat(length); // € as a 6-byte JSON escape
    const party = {
      name: escaped(120),
      address: escaped(400),
      phone: escaped(40),
      tax_id: escaped(60),
      email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.io`,
    };
    const item = `{"description":"${escaped(300)}","quantity":999999.999999,"unit_price":0.000001}`;
    const body = `{"seller":${JSON.stringify(party).replace(/\\\\/g, '\\')},"buyer":${JSON.stringify(party).replace(/\\\\/g, '\\')},"invoice_number":"${escaped(64)}","issue_date":"2026-01-01","due_date":"2026-02-01","currency":"EUR","line_items":[${Array(200).fill(item).join(',')}],"tax_rate":99.99999,"discount":0,"notes":"${escaped(2000)}","payment_instructions":"${escaped(1000)}"}`;
    assert.ok(body.length > 350_000 && body.length < 1024 * 1024, `body is ${body.length} bytes`);
    const response = await postJson(`${app.url}/v1/invoice/validate`, body);
    assert.equal(response.status, 200, await response.clone().text());
    const totals = await response.json();
    assert.equal(totals.lines.length, 200);
    assert.equal(totals.lines[0].description, '€'.repeat(300));
  });
});

describe('POST /v1/invoice.pdf without payments configured', () => {
  test('validates exactly like validate: 400 before anything else', async () => {
    const error = await expectError(
      await postJson(`${app.url}/v1/invoice.pdf`, { ...EXAMPLE_INVOICE, issue_date: '2026-02-30' }),
      400,
      'validation_failed',
    );
    assert.deepEqual(
      error.issues?.map((issue) => issue.path),
      ['issue_date'],
    );
  });

  test('a valid body is refused rather than rendered for free', async () => {
    await expectError(await postJson(`${app.url}/v1/invoice.pdf`, EXAMPLE_INVOICE), 501, 'payment_unavailable');
  });
});

describe('GET /v1/schema', () => {
  test('the example validates and every field has notes with limits', async () => {
    const response = await get('/v1/schema');
    assert.equal(response.status, 200);
    const body = await response.json();
    const validated = await postJson(`${app.url}/v1/invoice/validate`, body.example);
    assert.equal(validated.status, 200);
    const fields = new Map<string, JsonAnswer>(body.fields.map((field: JsonAnswer) => [field.path, field]));
    for (const path of [
      'seller.name',
      'seller.email',
      'buyer.tax_id',
      'invoice_number',
      'issue_date',
      'due_date',
      'currency',
      'line_items',
      'line_items[].description',
      'line_items[].quantity',
      'line_items[].unit_price',
      'tax_rate',
      'discount',
      'notes',
      'payment_instructions',
    ]) {
      assert.ok(fields.has(path), `notes for ${path}`);
    }
    assert.deepEqual(fields.get('line_items[].quantity').limits, { exclusiveMinimum: 0, maximum: 1000000 });
    assert.equal(fields.get('invoice_number').limits.maxLength, 64);
    assert.equal(fields.get('invoice_number').required, true);
    assert.equal(fields.get('due_date').required, false);
    assert.deepEqual(fields.get('currency').limits.enum, CURRENCY_CODES);
    assert.equal(CURRENCY_CODES.length, 16);
    assert.equal(fields.get('currency').limits.default, 'USD');
    assert.equal(body.totals.formula.length, 9);
    // The real-world example validates too, and its new fields have notes.
    const realWorld = await postJson(`${app.url}/v1/invoice/validate`, body.example_real_world);
    assert.equal(realWorld.status, 200);
    assert.equal((await realWorld.json()).tax_groups.length, 2);
    for (const path of [
      'locale',
      'labels.invoice',
      'logo',
      'accent_color',
      'amount_paid',
      'ship_to.country',
      'seller.vat_id',
      'line_items[].tax_category',
      'line_items[].unit',
      'payment.iban',
      'custom_fields',
    ]) {
      assert.ok(fields.has(path), `notes for ${path}`);
    }
    assert.equal(fields.get('custom_fields').limits.maxItems, 10);
    assert.equal(body.languages.length, LANGUAGES.length);
    assert.match(body.totals.rounding, /half away from zero/);
    assert.equal(body.currencies.length, CURRENCY_CODES.length);
  });
});

describe('errors for unknown paths and methods', () => {
  test('404 and 405 use the same body shape', async () => {
    await expectError(await get('/nope'), 404, 'not_found');
    const wrongMethod = await get('/v1/invoice/validate');
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    await expectError(wrongMethod, 405, 'method_not_allowed');
    await expectError(await fetch(`${app.url}/v1/schema`, { method: 'DELETE' }), 405, 'method_not_allowed');
  });

  test('CORS preflight allows the x402 headers; responses expose them', async () => {
    const preflight = await fetch(`${app.url}/v1/invoice.pdf`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'payment-signature,content-type',
      },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /PAYMENT-SIGNATURE/);
    const response = await get('/healthz');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /PAYMENT-REQUIRED, PAYMENT-RESPONSE/);
    assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});
