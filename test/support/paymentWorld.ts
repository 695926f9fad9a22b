import { after, before } from 'node:test';
import { startPaidService, type PaidServiceOptions } from './paidService.js';
import { fileWorld } from './sharedWorld.js';

type World = Awaited<ReturnType<typeof fileWorld>>;
/** Registers what `setUp` started to be stopped after the tests (last started, first stopped); returns it. */
type StopLater = <T extends { close(): Promise<unknown> } | { stop(): Promise<unknown> }>(started: T) => T;

/**
 * The payment world of a test file (a local chain and facilitator, Chromium: sharedWorld.ts, shared
 * with the files before and after it in a group's process), there before its tests, with what the
 * file adds to it (`setUp`: paid services, a faulty facilitator in front, Redis), which is stopped
 * after them, last started first; then the world, unless the group's process keeps it for its next
 * files. Its fields are there once the tests run: `world.net`, `world.renderer` and those `setUp`
 * returns. `renderer: false`: a file that brings its own renderer gets none.
 */
export function usePaymentWorld<T extends object>(
  setUp: (world: Omit<World, 'release'>, stopLater: StopLater) => Promise<T>,
  options: { when?: boolean; timeoutMs?: number; renderer?: boolean } = {},
): Omit<World, 'release'> & T {
  const fixture = {} as Omit<World, 'release'> & T;
  const stops: (() => Promise<unknown>)[] = [];
  let world: World | undefined;
  const stopLater: StopLater = (started) => {
    stops.push('close' in started ? () => started.close() : () => started.stop());
    return started;
  };
  before(
    async () => {
      if (options.when === false) return;
      world = await fileWorld({ renderer: options.renderer ?? true });
      Object.assign(fixture, { net: world.net, renderer: world.renderer });
      Object.assign(fixture, await setUp(world, stopLater));
    },
    { timeout: options.timeoutMs ?? 90_000 },
  );
  after(
    async () => {
      for (const stop of stops.reverse()) await stop();
      await world?.release();
    },
    { timeout: 30_000 },
  );
  return fixture;
}

/** The payment world and one paid service on it (`service`), as most e2e files want it. */
export function usePaidService(options: Omit<PaidServiceOptions, 'net' | 'renderer'> = {}) {
  return usePaymentWorld(async (world, stopLater) => ({
    service: stopLater(await startPaidService({ net: world.net, renderer: world.renderer, ...options })),
  }));
}
