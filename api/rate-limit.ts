// Rate limits (issue 12, hole 7; docs/security.md "API limits"): a token bucket per signed agent and
// one per client address for everything else, checked before any work is done. A refused request
// answers 429 `rate_limited` with `Retry-After` and changes nothing. The buckets live in a store:
// in memory for one process (the SQLite default), in PostgreSQL when API processes share one
// (rate-limit-postgres.ts), so every process spends from the same bucket.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { errorBody } from './errors';

export interface BucketRule {
  /** Tokens a full bucket holds: the largest burst. */
  burst: number;
  /** Tokens added per second, up to `burst`. */
  perSecond: number;
}

export interface RateLimitSettings {
  /** Per signed agent (the verified signer). */
  agent: BucketRule;
  /** Per client address, for requests without a (valid) signature. */
  address: BucketRule;
  /** Open event streams (SSE) per agent, or per address when unsigned. */
  streamsPerCaller: number;
  /** Open event streams of the whole service (every API process sharing the store). */
  streamsTotal: number;
}

/** Generous for people and scripts, a wall for floods; see the README's settings table. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  agent: { burst: 120, perSecond: 20 },
  address: { burst: 600, perSecond: 50 },
  streamsPerCaller: 8,
  streamsTotal: 1000,
};

export type TakeResult = { ok: true } | { ok: false; retryAfterMs: number };

export interface RateLimitStore {
  /**
   * Refills the bucket `key` to `now`, then takes `cost` tokens if at least max(cost, 1) are there.
   * Cost 0 only asks whether the bucket is empty. Atomic per key.
   */
  take(key: string, rule: BucketRule, cost: 0 | 1, now: number): Promise<TakeResult>;
}

/** The tokens a bucket holds at `now`, given what it held at `refilledAt`. */
export function refilled(tokens: number, refilledAt: number, now: number, rule: BucketRule): number {
  return Math.min(rule.burst, tokens + (Math.max(0, now - refilledAt) * rule.perSecond) / 1000);
}

/** How long until the bucket holds one token again. */
export function retryAfterMs(tokens: number, rule: BucketRule): number {
  return Math.max(1, Math.ceil(((1 - tokens) * 1000) / rule.perSecond));
}

/** Milliseconds after which a bucket untouched since is full again, i.e. the same as no row. */
export function fillTimeMs(rule: BucketRule): number {
  return Math.ceil((rule.burst * 1000) / rule.perSecond);
}

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/** One process's buckets. Full buckets are dropped now and then (they equal no bucket). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly buckets = new Map<string, Bucket & { fillMs: number }>();
  private lastPrune = 0;

  async take(key: string, rule: BucketRule, cost: 0 | 1, now: number): Promise<TakeResult> {
    if (now - this.lastPrune >= 60_000) this.prune(now);
    const found = this.buckets.get(key);
    const tokens = found ? refilled(found.tokens, found.refilledAt, now, rule) : rule.burst;
    const ok = tokens >= Math.max(cost, 1);
    this.buckets.set(key, {
      tokens: ok ? tokens - cost : tokens,
      refilledAt: Math.max(now, found?.refilledAt ?? now),
      fillMs: fillTimeMs(rule),
    });
    return ok ? { ok: true } : { ok: false, retryAfterMs: retryAfterMs(tokens, rule) };
  }

  private prune(now: number): void {
    this.lastPrune = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.refilledAt >= bucket.fillMs) this.buckets.delete(key);
    }
  }
}

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
