import {
  createMemoryEntitlementStore,
  createRedisEntitlementStore,
  type EntitlementStore,
} from './entitlementStore.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Entitlements where the payment state is: Redis with REDIS_URL (shared, survives restarts), else memory. */
export interface SignInWithX {
  entitlements: EntitlementStore;
  entitlementMs: number;
  /** The configured public base URL (PUBLIC_BASE_URL): every sign-in message is bound to its origin. */
  baseUrl: string;
}

export function startSignInWithX(
  settings: { entitlementDays: number },
  shared: { redisUrl?: string | undefined; baseUrl: string },
): SignInWithX {
  const { redisUrl, baseUrl } = shared;
  return {
    baseUrl,
    entitlements: redisUrl ? createRedisEntitlementStore({ url: redisUrl }) : createMemoryEntitlementStore(),
    entitlementMs: settings.entitlementDays * DAY_MS,
  };
}
