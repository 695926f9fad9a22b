// MCP beside HTTP: the size of tools/list (what an agent reads before its first call) and the
// service's event-loop time per call of the free validate tool with a 200-line invoice, over
// POST /mcp tools/call and over POST /v1/invoice/validate, measured in the same run. The service
// runs in a child process (bench/mcpCostServer.ts) and reports its own event-loop utilisation,
// so the client's work is not counted.
import { fork, type ChildProcess } from 'node:child_process';
import { maximalFreeRequests } from '../test/fixtures/maximalFreeRequests.js';
import { nodeArgsOf } from '../test/support/childEntry.js';
import { scaled } from './scale.js';

const CALLS = scaled(200);
const WARM_UP = scaled(40);

// Node's options, then the file: fork takes them apart.
const serverArgs = nodeArgsOf(new URL('./mcpCostServer.ts', import.meta.url));
const child = fork(serverArgs.at(-1)!, { execArgv: serverArgs.slice(0, -1), stdio: 'inherit' });
const nextMessage = (process: ChildProcess) =>
  new Promise<Record<string, unknown>>((resolve) =>
    process.once('message', (m) => resolve(m as Record<string, unknown>)),
  );
const { url } = (await nextMessage(child)) as { url: string };
const activeMs = async () => {
  child.send('elu');
  return ((await nextMessage(child)) as { activeMs: number }).activeMs;
};

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const mcp = (method: string, params: unknown) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(30_000),
  });

const list = (await (await mcp('tools/list', {})).json()) as { result: { tools: { name: string }[] } };
const toolSizes = list.result.tools.map((tool) => Buffer.byteLength(JSON.stringify(tool)));
console.log(
  `MCP tools/list: ${Buffer.byteLength(JSON.stringify(list.result.tools))} bytes for ${toolSizes.length} tools (largest ${Math.max(...toolSizes)} bytes; budget 32768 in all, 4096 per tool)`,
);

const invoice = maximalFreeRequests().find((request) => request.path === '/v1/invoice/validate')!.body;
const httpBody = JSON.stringify(invoice);
const overHttp = async () => {
  const response = await fetch(`${url}/v1/invoice/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: httpBody,
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`HTTP validate: ${response.status}`);
};
const overMcp = async () => {
  const response = await mcp('tools/call', { name: 'v1_invoice_validate', arguments: invoice });
  const answer = (await response.json()) as { result?: { isError?: boolean } };
  if (response.status !== 200 || !answer.result || answer.result.isError) throw new Error('MCP validate failed');
};

/** The service's event-loop milliseconds per call, calls sent one after another. */
async function perCall(call: () => Promise<void>): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await call();
  const before = await activeMs();
  for (let i = 0; i < CALLS; i++) await call();
  return ((await activeMs()) - before) / CALLS;
}

// Alternated, twice each, so that a busy moment of the machine does not land on one transport only.
const http: number[] = [];
const mcpTimes: number[] = [];
for (let round = 0; round < 2; round++) {
  http.push(await perCall(overHttp));
  mcpTimes.push(await perCall(overMcp));
}
const best = (times: number[]) => Math.min(...times);
console.log(
  `validate, 200 lines, ${(httpBody.length / 1024).toFixed(0)} KiB: service event-loop time per call over HTTP ${best(http).toFixed(2)} ms, over MCP tools/call ${best(mcpTimes).toFixed(2)} ms (${(best(mcpTimes) / best(http)).toFixed(2)}x HTTP)`,
);
child.send('stop');
