// The rate-limit buckets: the rules (a token bucket per key, refilled at a steady rate up to a burst),
// the store contract and one process's buckets in memory (the SQLite default). The PostgreSQL store
// beside it (postgres.ts) lets every API process spend from the same bucket.
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
