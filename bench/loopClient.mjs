// A bench client in a process of its own (plain JavaScript, no build step): it sends one request
// `warmup` times, says "ready", waits for "go" on stdin, sends it `rounds` times checking each
// status, and says "done". The parent measures its own event loop between "go" and "done", so the
// client's work is not counted (bench/unpaidCost.ts).
import { createInterface } from 'node:readline';

const { url, body, headers, expect, warmup, rounds } = JSON.parse(process.argv[2]);
const send = async () => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.arrayBuffer();
  if (response.status !== expect) throw new Error(`${url}: ${response.status}, expected ${expect}`);
};
for (let i = 0; i < warmup; i++) await send();
process.stdout.write('ready\n');
const input = createInterface({ input: process.stdin });
for await (const line of input) {
  if (line !== 'go') continue;
  for (let i = 0; i < rounds; i++) await send();
  process.stdout.write('done\n');
  input.close();
}
