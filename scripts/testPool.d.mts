/** scripts/testPool.mjs: the pool of `npm test`'s jobs. */
export interface PoolJob<R extends { ok: boolean; cpu: number; ms: number }> {
  name: string;
  tier: string;
  /** Expected wall and CPU seconds. */
  wall: number;
  cpu: number;
  /** Runs alone, after every other job. */
  exclusive: boolean;
  run(): Promise<R>;
}
export type PoolResult<R> = R & { name: string; tier: string; started: number; ended: number };
export function runPool<R extends { ok: boolean; cpu: number; ms: number }>(
  jobs: PoolJob<R>[],
  options: { budget: number; tierCaps?: Record<string, number>; first?: string[]; origin?: number },
): Promise<PoolResult<R>[]>;
export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; buffered: boolean; timeoutMs?: number; label?: string },
): Promise<{ ok: boolean; cpu: number; ms: number; failures?: string[] }>;
/** A failed job's "failing tests" section (or last lines), at most 40 lines, blank lines dropped. */
export function failuresIn(output: string): string[];
