/**
 * The studio's preview against a plain render, in one run: `npm run bench:studio`. The service over
 * HTTP prints the one-page reference invoice (GET /v1/templates/reference-invoices, "one-line")
 * by POST /v1/invoice.pdf (the baseline, priced 0), and by POST /v1/templates/preview in the
 * forked classic package, sent inline (as the studio sends it on every pause) and by its stored
 * id. Samples alternate between the two sides (order flipped each time) so that the machine's
 * drift hits both alike; the ratio of the p50s is the figure. Targets (issue 53): the preview
 * ≤ 1.3× the plain render, and ≤ 300 ms p50. BENCH_SCALE scales the sample count.
 */
import { Agent } from 'node:http';
import { percentile } from './measure.js';
import { post } from './httpPost.js';
import { scaled } from './scale.js';
import { serviceTarget } from './targets.js';

const SAMPLES = scaled(40, 2);
const WARMUP = scaled(3);

const target = await serviceTarget({ poolSize: 2 });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
try {
  const getJson = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${target.baseUrl}${path}`, init);
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  const invoices = (await getJson('/v1/templates/reference-invoices')) as { id: string; invoice: unknown }[];
  const invoice = invoices.find((entry) => entry.id === 'one-line')?.invoice;
  if (!invoice) throw new Error('no one-line reference invoice');
  const { name: _name, ...classic } = (await getJson('/v1/templates/classic')) as Record<string, unknown>;
  const { id } = (await getJson('/v1/templates', {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(classic),
  })) as { id: string };

  const send = (path: string, body: unknown) => {
    const payload = Buffer.from(JSON.stringify(body));
    return async () => {
      const { status } = await post(agent, new URL(path, target.baseUrl), payload);
      if (status !== 200) throw new Error(`${path} answered ${status}`);
    };
  };
  const plain = send('/v1/invoice.pdf', invoice);
  const sides = {
    'preview, package inline': send('/v1/templates/preview', { design: classic, invoice }),
    'preview, stored id': send('/v1/templates/preview', { design: id, invoice }),
  };

  process.stdout.write(
    `the studio's preview against a plain render, one-line reference invoice, ${SAMPLES} samples each\n`,
  );
  process.stdout.write('| preview | plain p50 ms | preview p50 ms | preview / plain |\n|---|---|---|---|\n');
  for (const [name, preview] of Object.entries(sides)) {
    const samples = { plain: [] as number[], preview: [] as number[] };
    for (let at = 0; at < WARMUP; at++) {
      await plain();
      await preview();
    }
    for (let at = 0; at < SAMPLES; at++) {
      for (const side of at % 2 === 0 ? (['plain', 'preview'] as const) : (['preview', 'plain'] as const)) {
        const started = performance.now();
        await (side === 'plain' ? plain() : preview());
        samples[side].push(performance.now() - started);
      }
    }
    const a = percentile(samples.plain, 50);
    const b = percentile(samples.preview, 50);
    const ratio = b / a;
    const met = ratio <= 1.3 && b <= 300;
    process.stdout.write(
      `| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${ratio.toFixed(2)}× ${met ? '(≤ 1.3× and ≤ 300 ms: met)' : '(NOT met: ≤ 1.3× and ≤ 300 ms)'} |\n`,
    );
  }
} finally {
  agent.destroy();
  await target.close();
}
