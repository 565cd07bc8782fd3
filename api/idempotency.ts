// `Idempotency-Key` for mutating routes (SPEC §12, Appendix A): the first answer to a key is saved
// and a repeat gets it again without a second effect; the same key with another request is 422.
// A key is reserved before the handler runs, so two concurrent identical requests never both run:
// the second gets 409 `idempotency_in_progress` (Retry-After: 1) and, retried, the saved answer.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { createHash } from 'node:crypto';
import type { SqliteDatabase } from './auth/sqlite-file';
import { openSqliteFile } from './auth/sqlite-file';
import { errorBody } from './errors';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Whose key it is and where it was used: keys of different callers or routes never collide. */
export interface IdempotencyScope {
  caller: string;
  method: string;
  path: string;
  key: string;
}

export interface SavedAnswer {
  status: number;
  contentType: string | null;
  body: Uint8Array;
}

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'replay'; answer: SavedAnswer }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

export interface IdempotencyStore {
  /** Atomically: reserve a new key, or say what the existing record means for this request. */
  reserve(scope: IdempotencyScope, requestHash: string): Promise<Reservation>;
  /** Saves the answer of a reserved key. */
  complete(scope: IdempotencyScope, answer: SavedAnswer): Promise<void>;
  /** Drops a reservation whose request failed without a definite answer, so it can be retried. */
  release(scope: IdempotencyScope): Promise<void>;
}

export interface IdempotencyStoreOptions {
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /** A reservation older than this is taken to be abandoned by a crashed process (default 2 min). */
  leaseMs?: number;
  /** Saved answers are kept this long (default 24 h). */
  retentionMs?: number;
}
export type SqliteIdempotencyStoreOptions = IdempotencyStoreOptions;

/** The options with their defaults applied (shared by the SQLite and PostgreSQL stores). */
/** Both stores prune finished and abandoned records at most this often, from reserve(). */
export const IDEMPOTENCY_PRUNE_INTERVAL_MS = 60_000;

export function idempotencyStoreSettings(options: IdempotencyStoreOptions) {
  return {
    now: options.now ?? Date.now,
    leaseMs: options.leaseMs ?? 120_000,
    retentionMs: options.retentionMs ?? 24 * 3600_000,
  };
}

/** A stored record, as both stores read it back. */
export interface IdempotencyRecord {
  requestHash: string;
  state: 'pending' | 'done';
  /** Milliseconds since the epoch. */
  reservedAt: number;
  status: number | null;
  contentType: string | null;
  body: Uint8Array | null;
}

/**
 * What an existing record means for a request with `requestHash` at `now`; `take_over` when it is
 * a reservation past its lease, which the caller may claim (it then answers `reserved`).
 */
export function judgeRecord(
  record: IdempotencyRecord,
  requestHash: string,
  now: number,
  leaseMs: number,
): Reservation | { kind: 'take_over' } {
  if (record.requestHash !== requestHash) return { kind: 'mismatch' };
  if (record.state === 'done') {
    return {
      kind: 'replay',
      answer: {
        status: record.status ?? 200,
        contentType: record.contentType,
        body: new Uint8Array(record.body ?? []),
      },
    };
  }
  if (record.reservedAt >= now - leaseMs) return { kind: 'in_progress' };
  return { kind: 'take_over' };
}

/** Saved answers older than `doneBefore` and reservations older than `pendingBefore` are pruned. */
export function pruneCutoffs(now: number, leaseMs: number, retentionMs: number) {
  return { doneBefore: now - retentionMs, pendingBefore: now - Math.max(leaseMs, retentionMs) };
}

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
  private lastPrune = -Infinity;

  constructor(path: string, options: IdempotencyStoreOptions = {}) {
    ({
      now: this.now,
      leaseMs: this.leaseMs,
      retentionMs: this.retentionMs,
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
      PRIMARY KEY (caller, method, path, key)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS idempotency_keys_reserved_at ON idempotency_keys (reserved_at);`);
  }

  private readonly where = 'caller = @caller AND method = @method AND path = @path AND key = @key';

  // IMMEDIATE takes the write lock before reading, so two processes cannot both see "no record".
  private readonly reserveTx = (scope: IdempotencyScope, requestHash: string, now: number): Reservation => {
    const row = this.db.prepare(`SELECT * FROM idempotency_keys WHERE ${this.where}`).get(scope) as
      Row | undefined;
    if (!row) {
      this.db
        .prepare(
          `INSERT INTO idempotency_keys (caller, method, path, key, request_hash, state, reserved_at)
           VALUES (@caller, @method, @path, @key, @requestHash, 'pending', @now)`,
        )
        .run({ ...scope, requestHash, now });
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
    this.db
      .prepare(`UPDATE idempotency_keys SET reserved_at = @now WHERE ${this.where}`)
      .run({ ...scope, now });
    return { kind: 'reserved' };
  };

  async reserve(scope: IdempotencyScope, requestHash: string): Promise<Reservation> {
    const now = this.now();
    if (now - this.lastPrune >= IDEMPOTENCY_PRUNE_INTERVAL_MS) this.prune();
    return this.db.transaction(this.reserveTx).immediate(scope, requestHash, now);
  }

  async complete(scope: IdempotencyScope, answer: SavedAnswer): Promise<void> {
    this.db
      .prepare(
        `UPDATE idempotency_keys SET state = 'done', status = @status, content_type = @contentType, body = @body
         WHERE ${this.where} AND state = 'pending'`,
      )
      .run({
        ...scope,
        status: answer.status,
        contentType: answer.contentType,
        body: Buffer.from(answer.body),
      });
  }

  async release(scope: IdempotencyScope): Promise<void> {
    this.db.prepare(`DELETE FROM idempotency_keys WHERE ${this.where} AND state = 'pending'`).run(scope);
  }

  /** Deletes answers older than the retention period and reservations past their lease; returns how many. */
  prune(): number {
    const now = this.now();
    this.lastPrune = now;
    return this.db
      .prepare(
        `DELETE FROM idempotency_keys
         WHERE (state = 'done' AND reserved_at < @doneBefore) OR (state = 'pending' AND reserved_at < @pendingBefore)`,
      )
      .run(pruneCutoffs(now, this.leaseMs, this.retentionMs)).changes;
  }

  close(): void {
    this.db.close();
  }
}

/** What makes two uses of a key "the same request": its query string and its body bytes. */
export function requestHash(query: string, body: Uint8Array): string {
  return createHash('sha256').update(query).update('\0').update(body).digest('hex');
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /**
   * Who owns the keys of this route; defaults to the signed caller (`c.var.caller`, so place the
   * middleware after requireSignature). Give one for unsigned routes, e.g. `() => 'operator'`.
   */
  scope?: (c: Context) => string | undefined;
}

function refusal(
  status: 400 | 409 | 422,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function idempotency({
  store,
  scope = (c) => c.get('caller') as string | undefined,
}: IdempotencyOptions) {
  return createMiddleware(async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !MUTATING_METHODS.has(c.req.method)) return next();
    if (!KEY_PATTERN.test(key)) {
      return refusal(400, 'bad_request', `${IDEMPOTENCY_HEADER} must be 1-255 visible ASCII characters`);
    }
    const caller = scope(c);
    if (caller === undefined)
      throw new Error('idempotency middleware needs a caller: place it after requireSignature');

    const url = new URL(c.req.url);
    const id: IdempotencyScope = { caller, method: c.req.method, path: url.pathname, key };
    const body = new Uint8Array(await c.req.arrayBuffer());
    const reservation = await store.reserve(id, requestHash(url.search, body));
    switch (reservation.kind) {
      case 'mismatch':
        return refusal(
          422,
          'idempotency_key_reused',
          `${IDEMPOTENCY_HEADER} was already used with another request`,
        );
      case 'in_progress':
        return refusal(
          409,
          'idempotency_in_progress',
          `a request with this ${IDEMPOTENCY_HEADER} is in progress`,
          {
            'Retry-After': '1',
          },
        );
      case 'replay': {
        const { status, contentType, body: saved } = reservation.answer;
        const headers: Record<string, string> = { [REPLAYED_HEADER]: 'true' };
        if (contentType) headers['Content-Type'] = contentType;
        return new Response(saved.length > 0 ? saved : null, { status, headers });
      }
      case 'reserved':
        break;
    }

    try {
      await next();
    } catch (err) {
      await store.release(id);
      throw err;
    }
    // A 5xx is no definite answer (the effect may not have happened): free the key for a retry;
    // the effects behind the API are idempotent themselves (Temporal update IDs, ledger keys).
    if (c.res.status >= 500) {
      await store.release(id);
      return;
    }
    const answer = new Uint8Array(await c.res.clone().arrayBuffer());
    await store.complete(id, {
      status: c.res.status,
      contentType: c.res.headers.get('Content-Type'),
      body: answer,
    });
  });
}
