// The replicas' memory and CPU as `docker stats` sees them: what deploy/base/deployment.yaml's
// requests and limits are taken from.
import { sleep } from '../docker/checks.mjs';
import { run } from '../docker/commands.mjs';

const MIB = 1024 * 1024;
const toBytes = (text) => {
  const [, number, unit] = /^([\d.]+)\s*([KMG]i?B|B)$/.exec(text.trim()) ?? [];
  return Number(number) * ({ B: 1, KiB: 1024, KB: 1e3, MiB: MIB, MB: 1e6, GiB: 1024 * MIB, GB: 1e9 }[unit] ?? NaN);
};
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/**
 * Samples `docker stats` of the containers `ids()` answers, about once a second, until `stop()`,
 * which answers peak and mean memory (MiB) and CPU (% of a core) over all of them.
 */
export function sampler(ids) {
  const peaks = new Map();
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const out = await run(
        'docker',
        ['stats', '--no-stream', '--format', '{{.ID}}\t{{.CPUPerc}}\t{{.MemUsage}}', ...(await ids())],
        { timeoutMs: 30_000 },
      );
      for (const line of out.stdout.split('\n').filter(Boolean)) {
        const [id, cpu, memory] = line.split('\t');
        const sample = { cpu: Number.parseFloat(cpu), memory: toBytes(memory.split('/')[0]) };
        if (!Number.isFinite(sample.cpu) || !Number.isFinite(sample.memory)) continue;
        samples.push(sample);
        const peak = peaks.get(id) ?? { cpu: 0, memory: 0 };
        peaks.set(id, { cpu: Math.max(peak.cpu, sample.cpu), memory: Math.max(peak.memory, sample.memory) });
      }
      await sleep(1_000);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const memory = [...peaks.values()].map((peak) => peak.memory);
      const cpu = [...peaks.values()].map((peak) => peak.cpu);
      return {
        samples: samples.length,
        peakMemoryMiB: Math.round(Math.max(0, ...memory) / MIB),
        meanMemoryMiB: Math.round(mean(samples.map((sample) => sample.memory)) / MIB),
        peakCpuPercent: Math.round(Math.max(0, ...cpu)),
        meanCpuPercent: Math.round(mean(samples.map((sample) => sample.cpu))),
      };
    },
  };
}
