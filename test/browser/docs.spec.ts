import { expect, test } from '@playwright/test';
import { BASE_URL, isOwnRequest } from './support/env.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

test('GET /docs shows one Swagger UI operation block for every operation of /openapi.json', async ({
  page,
  request,
}) => {
  const openapi = (await (await request.get(`${BASE_URL}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => ({ method, path })),
  );
  expect(operations.length).toBeGreaterThan(10);

  const requests: string[] = [];
  page.on('request', (sent) => requests.push(sent.url()));
  await page.goto(`${BASE_URL}/docs`);

  await expect(page.locator('.opblock')).toHaveCount(operations.length);
  for (const { method, path } of operations) {
    await expect(
      page.locator(`.opblock-${method} .opblock-summary-path[data-path="${path}"]`),
      `${method.toUpperCase()} ${path}`,
    ).toHaveCount(1);
  }
  expect(
    requests.filter((url) => !isOwnRequest(url)),
    'the docs load nothing from elsewhere',
  ).toEqual([]);
});
