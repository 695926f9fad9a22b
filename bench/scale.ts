/**
 * BENCH_SCALE scales every bench's sample counts at once: 1 (the default) gives the figures
 * docs/benchmarks.md reports, 0.25 a quick look, 2 tighter figures. The bench tier of `npm test`
 * (test/bench) runs every bench at a tiny scale to prove each still runs to the end; its figures
 * mean nothing there.
 */
const raw = Number(process.env.BENCH_SCALE ?? 1);
if (!Number.isFinite(raw) || raw <= 0) throw new Error('BENCH_SCALE must be a positive number');
export const BENCH_SCALE = raw;

/** `n` scaled, never under `minimum` (a median needs one sample, a warm-up one round). */
export const scaled = (n: number, minimum = 1) => Math.max(minimum, Math.round(n * BENCH_SCALE));
