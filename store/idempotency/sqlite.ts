// The idempotency store in a SQLite file (one API process); the rules are index.ts's, and
// `holder` names the process whose heartbeat renews a pending row (store/lease.ts).
import type { Transaction } from 'better-sqlite3';
import type { SqliteDatabase } from '../sqlite/open';
import { openSqliteFile } from '../sqlite/open';
import type {
  IdempotencyScope,
  IdempotencyStore,
  IdempotencyStoreOptions,
  Reservation,
  SavedAnswer,
} from '.';
import { IDEMPOTENCY_PRUNE_INTERVAL_MS, idempotencyStoreSettings, judgeRecord, pruneCutoffs } from '.';
import type { LeasedRows } from '../lease';

type ReserveTx = (scope: IdempotencyScope, requestHash: string, now: number) => Reservation;

interface Row {
  request_hash: string;
  state: 'pending' | 'done';
  reserved_at: number;
  status: number | null;
  content_type: string | null;
  body: Buffer | null;
}

export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: SqliteDatabase;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly retentionMs: number;
  readonly holder: string;
  /** The holders' pending rows (better-sqlite3 runs each statement at once, before the promise resolves). */
  readonly leases: LeasedRows = {
    renew: async (holder, now) => void this.sql.renew.run({ holder, now }),
    releaseAll: async (holder) => this.sql.releaseAll.run({ holder }).changes,
  };
  private lastPrune = -Infinity;
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly reserveTransaction: Transaction<ReserveTx>;

  constructor(path: string, options: IdempotencyStoreOptions = {}) {
    ({
      now: this.now,
      leaseMs: this.leaseMs,
      retentionMs: this.retentionMs,
      holder: this.holder,
    } = idempotencyStoreSettings(options));
    this.db = openSqliteFile(path);
    this.db.exec(`CREATE TABLE IF NOT EXISTS idempotency_keys (
      caller TEXT NOT NULL,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'done')),
      reserved_at INTEGER NOT NULL,
      status INTEGER,
      content_type TEXT,
      body BLOB,
      holder TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (caller, method, path, key)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS idempotency_keys_reserved_at ON idempotency_keys (reserved_at);`);
    addHolderColumn(this.db);
    this.sql = prepareStatements(this.db);
    this.reserveTransaction = this.db.transaction(this.reserveTx);
  }

  // IMMEDIATE takes the write lock before reading, so two processes cannot both see "no record".
  private readonly reserveTx: ReserveTx = (scope, requestHash, now) => {
    const row = this.sql.select.get(scope) as Row | undefined;
    if (!row) {
      this.sql.insert.run({ ...scope, requestHash, now, holder: this.holder });
      return { kind: 'reserved' };
    }
    const judged = judgeRecord(
      {
        requestHash: row.request_hash,
        state: row.state,
        reservedAt: row.reserved_at,
        status: row.status,
        contentType: row.content_type,
        body: row.body,
      },
      requestHash,
      now,
      this.leaseMs,
    );
    if (judged.kind !== 'take_over') return judged;
    this.sql.takeOver.run({ ...scope, now, holder: this.holder });
    return { kind: 'reserved' };
  };

  async reserve(scope: IdempotencyScope, requestHash: string): Promise<Reservation> {
    const now = this.now();
    if (now - this.lastPrune >= IDEMPOTENCY_PRUNE_INTERVAL_MS) this.prune();
    return this.reserveTransaction.immediate(scope, requestHash, now);
  }

  async complete(scope: IdempotencyScope, answer: SavedAnswer): Promise<void> {
    this.sql.complete.run({
      ...scope,
      status: answer.status,
      contentType: answer.contentType,
      body: Buffer.from(answer.body),
      holder: this.holder,
    });
  }

  async release(scope: IdempotencyScope): Promise<void> {
    this.sql.release.run({ ...scope, holder: this.holder });
  }

  /** Deletes answers older than the retention period and reservations past their lease; returns how many. */
  prune(): number {
    const now = this.now();
    this.lastPrune = now;
    return this.sql.prune.run(pruneCutoffs(now, this.leaseMs, this.retentionMs)).changes;
  }

  close(): void {
    this.db.close();
  }
}

const WHERE = 'caller = @caller AND method = @method AND path = @path AND key = @key';

/** A file made before reservations had holders gets the column (its pending rows lapse as before). */
function addHolderColumn(db: SqliteDatabase): void {
  const columns = db.prepare('PRAGMA table_info(idempotency_keys)').all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === 'holder')) {
    db.exec(`ALTER TABLE idempotency_keys ADD COLUMN holder TEXT NOT NULL DEFAULT ''`);
  }
  db.exec(`CREATE INDEX IF NOT EXISTS idempotency_keys_pending_holder ON idempotency_keys (holder)
    WHERE state = 'pending'`);
}

/** Every statement the store runs, compiled once per file. */
function prepareStatements(db: SqliteDatabase) {
  return {
    select: db.prepare(`SELECT * FROM idempotency_keys WHERE ${WHERE}`),
    insert: db.prepare(
      `INSERT INTO idempotency_keys (caller, method, path, key, request_hash, state, reserved_at, holder)
       VALUES (@caller, @method, @path, @key, @requestHash, 'pending', @now, @holder)`,
    ),
    takeOver: db.prepare(`UPDATE idempotency_keys SET reserved_at = @now, holder = @holder WHERE ${WHERE}`),
    complete: db.prepare(
      `UPDATE idempotency_keys SET state = 'done', status = @status, content_type = @contentType, body = @body
       WHERE ${WHERE} AND state = 'pending' AND holder = @holder`,
    ),
    release: db.prepare(
      `DELETE FROM idempotency_keys WHERE ${WHERE} AND state = 'pending' AND holder = @holder`,
    ),
    renew: db.prepare(
      `UPDATE idempotency_keys SET reserved_at = @now
       WHERE holder = @holder AND state = 'pending' AND reserved_at < @now`,
    ),
    releaseAll: db.prepare(`DELETE FROM idempotency_keys WHERE holder = @holder AND state = 'pending'`),
    prune: db.prepare(
      `DELETE FROM idempotency_keys
       WHERE (state = 'done' AND reserved_at < @doneBefore) OR (state = 'pending' AND reserved_at < @pendingBefore)`,
    ),
  };
}
