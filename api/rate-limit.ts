// Rate limits (docs/security.md "What it costs to trigger"): a signed request is charged to its agent
// and to its host's budget for signed traffic, which bounds how far minting keys multiplies a host's
// rate; an unsigned request to its address's bucket; a request with signature headers that no agent
// paid for (a bad signature) to its address's unverified bucket. The three are apart, so a flood of
// one kind never refuses another kind's requests. A refused request answers 429 `rate_limited` with
// `Retry-After` and changes nothing. The buckets live in a store:
// in memory for one process (the SQLite default), in PostgreSQL when API processes share one
// (store/rate-limit/postgres.ts), so every process spends from the same bucket.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { RateLimitSettings, RateLimitStore } from '../store/rate-limit';
import { errorBody } from './errors';

export type { BucketRule, RateLimitSettings, RateLimitStore, TakeResult } from '../store/rate-limit';
export { DEFAULT_RATE_LIMITS, MemoryRateLimitStore } from '../store/rate-limit';

/** The 429 answer: the §12 error shape, code `rate_limited`, `Retry-After` in whole seconds. */
export function tooManyRequests(c: Context, waitMs: number, message: string): Response {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  c.header('Retry-After', String(seconds));
  return c.json(errorBody('rate_limited', message, { retryAfterSeconds: seconds }), 429);
}

/**
 * The client's address: the TCP peer as @hono/node-server saw it. Requests that did not come over a
 * socket (app.request() in tests) share one address. Behind a reverse proxy every client has the
 * proxy's address: give the proxy its own limits, or raise the address bucket (docs/security.md).
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export interface Limits {
  settings: RateLimitSettings;
  store: RateLimitStore;
  now: () => number;
  /**
   * True when the agent has money at stake (api/app.ts: at least a minimum Worker Stake held), as
   * every party of an open contract has: its host's emptied budget does not refuse it.
   */
  atStake?: (agent: string) => Promise<boolean>;
}

const hasSignatureHeaders = (c: Context) =>
  c.req.header('Signature') !== undefined || c.req.header('Signature-Input') !== undefined;

/**
 * Every request, before anything else. Unsigned ones spend a token of their address's bucket. Signed
 * ones are charged once their signature is verified (agentLimit); one that no agent paid for (a bad
 * signature, or signature headers on a public route) spends its address's unverified bucket, and an
 * address whose unverified bucket is empty gets 429 before a signature is even checked, so forged
 * signatures cannot be sent without limit.
 */
export function addressLimit(limits: Limits): MiddlewareHandler {
  const { address, unverified } = limits.settings;
  return createMiddleware(async (c, next) => {
    const host = clientAddress(c);
    const signed = hasSignatureHeaders(c);
    const [key, rule] = signed ? [`unverified:${host}`, unverified] : [`address:${host}`, address];
    const taken = await limits.store.take(key, rule, signed ? 0 : 1, limits.now());
    if (!taken.ok) return tooManyRequests(c, taken.retryAfterMs, 'too many requests from this address');
    await next();
    if (signed && c.get('caller') === undefined) await limits.store.take(key, rule, 1, limits.now());
  });
}

/**
 * After requireSignature: the verified agent spends a token of its own bucket and one of its host's
 * bucket for signed traffic. The host is asked first without spending, so a refusal spends nothing.
 * An agent with money at stake is charged to its own bucket only once its host's is empty: keys cost
 * nothing to mint, a stake does, and every party of an open contract holds one (its escrow, its
 * Worker Stake, its bond or eligibility stake), so a host's flood of fresh keys never refuses a party.
 */
export function agentLimit(limits: Limits): MiddlewareHandler {
  const { agent, host } = limits.settings;
  return createMiddleware(async (c, next) => {
    const caller = c.get('caller') as string | undefined;
    if (caller === undefined) return next();
    const hostKey = `host:${clientAddress(c)}`;
    const hostRoom = await limits.store.take(hostKey, host, 0, limits.now());
    const exempt = !hostRoom.ok && (await limits.atStake?.(caller)) === true;
    if (!hostRoom.ok && !exempt) {
      return tooManyRequests(c, hostRoom.retryAfterMs, "too many signed requests from this agent's address");
    }
    const taken = await limits.store.take(`agent:${caller.toLowerCase()}`, agent, 1, limits.now());
    if (!taken.ok) return tooManyRequests(c, taken.retryAfterMs, 'too many requests from this agent');
    if (exempt) return next();
    const hostTaken = await limits.store.take(hostKey, host, 1, limits.now());
    if (!hostTaken.ok && (await limits.atStake?.(caller)) !== true) {
      return tooManyRequests(c, hostTaken.retryAfterMs, "too many signed requests from this agent's address");
    }
    return next();
  });
}
