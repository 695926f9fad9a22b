import {
  createMemoryEntitlementStore,
  createRedisEntitlementStore,
  type EntitlementStore,
} from './entitlementStore.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Entitlements where the payment state is: Redis with REDIS_URL (shared, survives restarts), else memory. */
export function startSignInWithX(
  settings: { entitlementDays: number },
  redisUrl: string | undefined,
): { entitlements: EntitlementStore; entitlementMs: number } {
  return {
    entitlements: redisUrl ? createRedisEntitlementStore({ url: redisUrl }) : createMemoryEntitlementStore(),
    entitlementMs: settings.entitlementDays * DAY_MS,
  };
}
