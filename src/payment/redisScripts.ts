import type { Redis } from 'ioredis';

// Data layout: ONE key per authorization, `${keyPrefix}${authorizationKey}`, whose Redis type is its
// state. A string is a claim (JSON saying who holds it, for humans running redis-cli); a hash is
// either a paid result (fingerprint, contentType, receipt, body as raw bytes, signature: the hash of
// the signature that paid, head: the answer's status and headers as JSON) or, when it has a
// `state` field ('parked'), a settlement of unknown outcome waiting to be collected (fingerprint,
// contentType, transaction, body, signature, head, and `heldUntil`: until when, in Redis server milliseconds, one
// re-sender holds it). All carry a PX expiry at the authorization's validBefore, so Redis forgets an
// authorization exactly when it can no longer be settled. One key means every state change is a
// single-key script: atomic, and cluster-safe.

// SET NX is the single-flight lock; on a miss the same script reads the result, or hands a parked
// settlement to this caller if nobody holds it (the lease uses Redis's clock, the same for every
// instance), so a claimer never sees a key that changed between two round trips.
const CLAIM_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'claimed'} end
if redis.call('TYPE', KEYS[1]).ok == 'hash' then
  if redis.call('HEXISTS', KEYS[1], 'state') == 1 then
    local time = redis.call('TIME')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    if tonumber(redis.call('HGET', KEYS[1], 'heldUntil') or '0') > now then return {'busy'} end
    redis.call('HSET', KEYS[1], 'heldUntil', string.format('%.0f', now + tonumber(ARGV[3])))
    return {'parked', unpack(redis.call('HMGET', KEYS[1], 'fingerprint', 'contentType', 'transaction', 'body', 'signature', 'head'))}
  end
  return {'done', unpack(redis.call('HMGET', KEYS[1], 'fingerprint', 'contentType', 'receipt', 'body', 'signature', 'head'))}
end
return {'busy'}`;

// Deletes a claim or a parked settlement, never a result: a release racing a complete (or
// arriving late) can't erase a paid result, which a plain DEL could.
const RELEASE_SCRIPT = `
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'string' or (kind == 'hash' and redis.call('HEXISTS', KEYS[1], 'state') == 1) then
  return redis.call('DEL', KEYS[1])
end
return 0`;

// Withdraws one particular claim (matched by its unique value): never another holder's claim,
// never a result.
const WITHDRAW_SCRIPT = `
if redis.call('TYPE', KEYS[1]).ok == 'string' and redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

// Replaces the claim (or the parked settlement) by the result in one step: no reader ever sees neither.
const COMPLETE_SCRIPT = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'fingerprint', ARGV[2], 'contentType', ARGV[3], 'receipt', ARGV[4], 'body', ARGV[5], 'signature', ARGV[6], 'head', ARGV[7])
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

// Replaces the claim (or a parked settlement, freeing it for the next re-sender) by a parked
// settlement, in one step; a paid result stays as it is. ARGV[8] > 0: the caller holds it for that
// many milliseconds of Redis's clock (a settlement about to be attempted), else it is free.
const PARK_SCRIPT = `
if redis.call('TYPE', KEYS[1]).ok == 'hash' and redis.call('HEXISTS', KEYS[1], 'state') == 0 then return 0 end
local heldUntil = '0'
if tonumber(ARGV[8]) > 0 then
  local time = redis.call('TIME')
  heldUntil = string.format('%.0f', tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) + tonumber(ARGV[8]))
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'parked', 'heldUntil', heldUntil, 'fingerprint', ARGV[2], 'contentType', ARGV[3], 'transaction', ARGV[4], 'body', ARGV[5], 'signature', ARGV[6], 'head', ARGV[7])
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

export interface StoreScripts {
  // The Buffer variant ioredis derives from defineCommand: the body must come back byte-exact.
  paymentClaimBuffer(key: string, claim: string, ttlMs: number, leaseMs: number): Promise<(Buffer | null)[]>;
  paymentRelease(key: string): Promise<number>;
  paymentWithdraw(key: string, claim: string): Promise<number>;
  paymentComplete(
    key: string,
    ttlMs: number,
    fingerprint: string,
    contentType: string,
    receipt: string,
    body: Buffer,
    signatureHash: string,
    head: string,
  ): Promise<number>;
  paymentPark(
    key: string,
    ttlMs: number,
    fingerprint: string,
    contentType: string,
    transaction: string,
    body: Buffer,
    signatureHash: string,
    head: string,
    holdMs: number,
  ): Promise<number>;
}

/** The store's commands on `redis`, each a single-key Lua script (see the data layout above). */
export function withStoreScripts(redis: Redis): Redis & StoreScripts {
  redis.defineCommand('paymentClaim', { numberOfKeys: 1, lua: CLAIM_SCRIPT });
  redis.defineCommand('paymentRelease', { numberOfKeys: 1, lua: RELEASE_SCRIPT });
  redis.defineCommand('paymentComplete', { numberOfKeys: 1, lua: COMPLETE_SCRIPT });
  redis.defineCommand('paymentWithdraw', { numberOfKeys: 1, lua: WITHDRAW_SCRIPT });
  redis.defineCommand('paymentPark', { numberOfKeys: 1, lua: PARK_SCRIPT });
  return redis as Redis & StoreScripts;
}
