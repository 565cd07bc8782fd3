// The rate-limit buckets and event-stream slots in PostgreSQL (tables `api_rate_buckets`,
// `api_event_streams`), shared by every API process on the database: two processes spend from one
// bucket and count one set of streams. A bucket is refilled and spent in one atomic UPSERT; a stream
// slot is a row whose expiry the open stream keeps pushing forward (a crashed process's slots expire).
import { randomUUID } from 'node:crypto';
import type { PostgresPool } from '../postgres/pool';
import { createTables } from '../postgres/pool';
import { fillTimeMs, retryAfterMs, type BucketRule, type RateLimitStore, type TakeResult } from '.';
import { RESERVED_OWNER_PREFIX, type StreamCaps, type StreamSlots } from '../stream-caps';
import { STREAM_SLOT_HOLDER_DDL } from '../stream-caps/leases';
import { HOLDER_GONE_SQL, LEASE_HOLDERS_DDL } from '../postgres/presence';

const SCHEMA = `CREATE TABLE IF NOT EXISTS api_rate_buckets (
  key TEXT PRIMARY KEY,
  tokens DOUBLE PRECISION NOT NULL,
  refilled_at BIGINT NOT NULL,
  allowed BOOLEAN NOT NULL
);
CREATE INDEX IF NOT EXISTS api_rate_buckets_refilled_at ON api_rate_buckets (refilled_at);
CREATE TABLE IF NOT EXISTS api_event_streams (
  slot TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS api_event_streams_owner ON api_event_streams (owner);
${STREAM_SLOT_HOLDER_DDL}
${LEASE_HOLDERS_DDL}`;

// In the UPDATE branch every b.* is the row before this statement; the row lock makes it atomic.
const AVAILABLE = 'LEAST($3::float8, b.tokens + GREATEST(0, $5::bigint - b.refilled_at) * $4::float8 / 1000)';
const TAKE = `INSERT INTO api_rate_buckets AS b (key, tokens, refilled_at, allowed)
VALUES ($1, $3::float8 - $2::int, $5::bigint, true)
ON CONFLICT (key) DO UPDATE SET
  allowed = ${AVAILABLE} >= GREATEST($2::int, 1),
  tokens = ${AVAILABLE} - CASE WHEN ${AVAILABLE} >= GREATEST($2::int, 1) THEN $2::int ELSE 0 END,
  refilled_at = GREATEST(b.refilled_at, $5::bigint)
RETURNING allowed, tokens`;

/** Serializes stream-slot acquisitions across processes (an arbitrary constant). */
const STREAMS_LOCK_KEY = 4_242_012;

export class PostgresRateLimitStore implements RateLimitStore {
  private lastPrune = 0;
  private longestFillMs = 0;

  private constructor(private readonly pool: PostgresPool) {}

  /** Creates the tables if missing. The pool stays its opener's to close. */
  static async open(pool: PostgresPool): Promise<PostgresRateLimitStore> {
    await createTables(pool, SCHEMA);
    return new PostgresRateLimitStore(pool);
  }

  async take(key: string, rule: BucketRule, cost: 0 | 1, now: number): Promise<TakeResult> {
    this.longestFillMs = Math.max(this.longestFillMs, fillTimeMs(rule));
    if (now - this.lastPrune >= 60_000) await this.prune(now);
    const { rows } = await this.pool.query<{ allowed: boolean; tokens: number }>(TAKE, [
      key,
      cost,
      rule.burst,
      rule.perSecond,
      now,
    ]);
    const row = rows[0]!;
    return row.allowed ? { ok: true } : { ok: false, retryAfterMs: retryAfterMs(row.tokens, rule) };
  }

  /** A bucket untouched for longer than it takes to fill is the same as no bucket. */
  private async prune(now: number): Promise<void> {
    this.lastPrune = now;
    await this.pool.query('DELETE FROM api_rate_buckets WHERE refilled_at < $1', [now - this.longestFillMs]);
  }
}

export interface PostgresStreamSlotsOptions {
  now?: () => number;
  /** A slot not heartbeaten for this long is taken to belong to a crashed process (default 60 s). */
  ttlMs?: number;
  /** The process whose heartbeat also renews the slots it opens (store/stream-caps/leases.ts). */
  holder?: string;
}

export class PostgresStreamSlots implements StreamSlots {
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly holder: string;
  private readonly beats = new Map<string, number>();

  private constructor(
    private readonly pool: PostgresPool,
    options: PostgresStreamSlotsOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.holder = options.holder ?? '';
  }

  /** Creates the tables if missing. The pool stays its opener's to close. */
  static async open(
    pool: PostgresPool,
    options: PostgresStreamSlotsOptions = {},
  ): Promise<PostgresStreamSlots> {
    await createTables(pool, SCHEMA);
    return new PostgresStreamSlots(pool, options);
  }

  async acquire(owner: string, caps: StreamCaps): Promise<string | undefined> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [STREAMS_LOCK_KEY]);
      const now = this.now();
      // Expired slots, and those of a process that died (store/postgres/presence.ts): free now, not when
      // their lease lapses.
      await client.query(
        `DELETE FROM api_event_streams WHERE expires_at < $1 OR holder IN
           (SELECT holder FROM api_lease_holders WHERE holder <> $2 AND ${HOLDER_GONE_SQL('holder')})`,
        [now, this.holder],
      );
      const { rows } = await client.query<{ mine: string; total: string }>(
        `SELECT count(*) FILTER (WHERE owner = $1) AS mine,
                count(*) FILTER (WHERE owner NOT LIKE '${RESERVED_OWNER_PREFIX}%') AS total
           FROM api_event_streams`,
        [owner],
      );
      const { mine, total } = rows[0]!;
      let slot: string | undefined;
      if (Number(mine) < caps.perCaller && (caps.total === undefined || Number(total) < caps.total)) {
        slot = randomUUID();
        this.beats.set(slot, now);
        await client.query(
          'INSERT INTO api_event_streams (slot, owner, expires_at, holder) VALUES ($1, $2, $3, $4)',
          [slot, owner, now + this.ttlMs, this.holder],
        );
      }
      await client.query('COMMIT');
      return slot;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Writes at most every third of the expiry, however often the stream calls it. */
  async heartbeat(slot: string): Promise<void> {
    const now = this.now();
    if (now - (this.beats.get(slot) ?? 0) < this.ttlMs / 3) return;
    this.beats.set(slot, now);
    await this.pool.query('UPDATE api_event_streams SET expires_at = $1 WHERE slot = $2', [
      now + this.ttlMs,
      slot,
    ]);
  }

  async release(slot: string): Promise<void> {
    this.beats.delete(slot);
    await this.pool.query('DELETE FROM api_event_streams WHERE slot = $1', [slot]);
  }
}
