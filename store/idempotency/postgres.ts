// The idempotency store on PostgreSQL: shared by every API process, so a key reserved through one
// is seen by all. Same rules as SqliteIdempotencyStore (sqlite.ts); no explicit transaction:
// each step is one atomic statement, and a take-over is a compare-and-set on `reserved_at`.
// `holder` names the API process whose heartbeat renews a pending row (store/lease.ts); a holder whose
// process is gone (store/postgres/presence.ts) has its rows taken over at once, before their lease lapses.
import type { PostgresPool } from '../postgres/pool';
import { createTables } from '../postgres/pool';
import { holderGone, LEASE_HOLDERS_DDL } from '../postgres/presence';
import type { LeasedRows } from '../lease';
import type {
  IdempotencyRecord,
  IdempotencyScope,
  IdempotencyStore,
  IdempotencyStoreOptions,
  Reservation,
  SavedAnswer,
} from '.';
import { IDEMPOTENCY_PRUNE_INTERVAL_MS, idempotencyStoreSettings, judgeRecord, pruneCutoffs } from '.';

const TABLE = `CREATE TABLE IF NOT EXISTS api_idempotency_keys (
  caller TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
  reserved_at BIGINT NOT NULL,
  status INTEGER,
  content_type TEXT,
  body BYTEA,
  holder TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (caller, method, path, key)
);
ALTER TABLE api_idempotency_keys ADD COLUMN IF NOT EXISTS holder TEXT NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS api_idempotency_keys_reserved_at ON api_idempotency_keys (reserved_at);
CREATE INDEX IF NOT EXISTS api_idempotency_keys_pending_holder ON api_idempotency_keys (holder)
  WHERE state = 'pending';
${LEASE_HOLDERS_DDL}`;

const WHERE = 'caller = $1 AND method = $2 AND path = $3 AND key = $4';
/** A record deleted or taken over between two statements sends reserve() round again; rarely more than once. */
const MAX_ROUNDS = 5;

interface Row {
  request_hash: string;
  state: 'pending' | 'done';
  reserved_at: string;
  status: number | null;
  content_type: string | null;
  body: Buffer | null;
  holder: string;
}

const scopeParams = (s: IdempotencyScope) => [s.caller, s.method, s.path, s.key];

/** The pending rows of a holder, renewed and released on `pool` (the heartbeat's own, so no queue delays it). */
export function idempotencyLeases(pool: PostgresPool): LeasedRows {
  return {
    async renew(holder, now) {
      await pool.query(
        `UPDATE api_idempotency_keys SET reserved_at = $2
         WHERE holder = $1 AND state = 'pending' AND reserved_at < $2`,
        [holder, now],
      );
    },
    async releaseAll(holder) {
      const deleted = await pool.query(
        `DELETE FROM api_idempotency_keys WHERE holder = $1 AND state = 'pending'`,
        [holder],
      );
      return deleted.rowCount ?? 0;
    },
  };
}

export class PostgresIdempotencyStore implements IdempotencyStore {
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly retentionMs: number;
  readonly holder: string;
  /** The holders' pending rows on this store's pool (an API's heartbeat uses a pool of its own). */
  readonly leases: LeasedRows;
  private lastPrune = -Infinity;

  private constructor(
    private readonly pool: PostgresPool,
    options: IdempotencyStoreOptions,
  ) {
    ({
      now: this.now,
      leaseMs: this.leaseMs,
      retentionMs: this.retentionMs,
      holder: this.holder,
    } = idempotencyStoreSettings(options));
    this.leases = idempotencyLeases(pool);
  }

  /** Creates the table if missing. The pool stays its opener's to close. */
  static async open(
    pool: PostgresPool,
    options: IdempotencyStoreOptions = {},
  ): Promise<PostgresIdempotencyStore> {
    await createTables(pool, TABLE);
    return new PostgresIdempotencyStore(pool, options);
  }

  async reserve(scope: IdempotencyScope, requestHash: string): Promise<Reservation> {
    const now = this.now();
    if (now - this.lastPrune >= IDEMPOTENCY_PRUNE_INTERVAL_MS) await this.prune();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const inserted = await this.pool.query(
        `INSERT INTO api_idempotency_keys (caller, method, path, key, request_hash, state, reserved_at, holder)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) ON CONFLICT DO NOTHING`,
        [...scopeParams(scope), requestHash, now, this.holder],
      );
      if (inserted.rowCount === 1) return { kind: 'reserved' };

      const record = await this.find(scope);
      if (record === undefined) continue; // released meanwhile: insert again
      const judged = judgeRecord(record, requestHash, now, this.leaseMs);
      const gone =
        judged.kind === 'in_progress' &&
        record.holder !== this.holder &&
        (await holderGone(this.pool, record.holder));
      if (judged.kind !== 'take_over' && !gone) return judged;
      const taken = await this.pool.query(
        `UPDATE api_idempotency_keys SET reserved_at = $5, holder = $7
         WHERE ${WHERE} AND state = 'pending' AND reserved_at = $6`,
        [...scopeParams(scope), now, record.reservedAt, this.holder],
      );
      if (taken.rowCount === 1) return { kind: 'reserved' };
    }
    // Still contended after several rounds: another process holds the key now.
    return { kind: 'in_progress' };
  }

  private async find(scope: IdempotencyScope): Promise<(IdempotencyRecord & { holder: string }) | undefined> {
    const { rows } = await this.pool.query<Row>(
      `SELECT request_hash, state, reserved_at, status, content_type, body, holder
       FROM api_idempotency_keys WHERE ${WHERE}`,
      scopeParams(scope),
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      requestHash: row.request_hash,
      state: row.state,
      reservedAt: Number(row.reserved_at),
      status: row.status,
      contentType: row.content_type,
      body: row.body,
      holder: row.holder,
    };
  }

  async complete(scope: IdempotencyScope, answer: SavedAnswer): Promise<void> {
    await this.pool.query(
      `UPDATE api_idempotency_keys SET state = 'done', status = $5, content_type = $6, body = $7
       WHERE ${WHERE} AND state = 'pending' AND holder = $8`,
      [...scopeParams(scope), answer.status, answer.contentType, Buffer.from(answer.body), this.holder],
    );
  }

  async release(scope: IdempotencyScope): Promise<void> {
    await this.pool.query(
      `DELETE FROM api_idempotency_keys WHERE ${WHERE} AND state = 'pending' AND holder = $5`,
      [...scopeParams(scope), this.holder],
    );
  }

  /** Deletes answers older than the retention period and reservations past their lease; resolves how many. */
  async prune(): Promise<number> {
    const now = this.now();
    this.lastPrune = now;
    const { doneBefore, pendingBefore } = pruneCutoffs(now, this.leaseMs, this.retentionMs);
    const deleted = await this.pool.query(
      `DELETE FROM api_idempotency_keys
       WHERE (state = 'done' AND reserved_at < $1) OR (state = 'pending' AND reserved_at < $2)`,
      [doneBefore, pendingBefore],
    );
    return deleted.rowCount ?? 0;
  }
}
