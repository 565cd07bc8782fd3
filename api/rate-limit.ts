// Rate limits (docs/security.md "API limits"): a token bucket per signed agent and
// one per client address for everything else, checked before any work is done. A refused request
// answers 429 `rate_limited` with `Retry-After` and changes nothing. The buckets live in a store:
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
}

const hasSignatureHeaders = (c: Context) =>
  c.req.header('Signature') !== undefined || c.req.header('Signature-Input') !== undefined;

/**
 * Every request, before anything else: unsigned ones spend a token of their address's bucket.
 * Signed ones are charged to their agent once the signature is verified (agentLimit); one that is
 * not (a bad signature, or signature headers on a public route) is charged to its address, and an
 * address whose bucket is empty gets 429 before its signature is even checked, so forged
 * signatures cannot be sent without limit.
 */
export function addressLimit(limits: Limits): MiddlewareHandler {
  const rule = limits.settings.address;
  return createMiddleware(async (c, next) => {
    const key = `address:${clientAddress(c)}`;
    const signed = hasSignatureHeaders(c);
    const taken = await limits.store.take(key, rule, signed ? 0 : 1, limits.now());
    if (!taken.ok) return tooManyRequests(c, taken.retryAfterMs, 'too many requests from this address');
    await next();
    // Not charged to an agent (a bad signature, or signature headers on a public route): the address pays.
    if (signed && c.get('caller') === undefined) await limits.store.take(key, rule, 1, limits.now());
  });
}

/** After requireSignature: the verified agent spends a token of its own bucket. */
export function agentLimit(limits: Limits): MiddlewareHandler {
  const rule = limits.settings.agent;
  return createMiddleware(async (c, next) => {
    const caller = c.get('caller') as string | undefined;
    if (caller === undefined) return next();
    const taken = await limits.store.take(`agent:${caller.toLowerCase()}`, rule, 1, limits.now());
    if (!taken.ok) return tooManyRequests(c, taken.retryAfterMs, 'too many requests from this agent');
    return next();
  });
}
