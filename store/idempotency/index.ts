// The idempotency store's contract (api/http/idempotency.ts is its middleware): what a record means for a
// repeated request, and the settings both stores share (sqlite.ts, postgres.ts).
// A reservation is a lease of its holder's (store/lease.ts): the holding process's heartbeat renews it while
// the request runs, so only a dead holder's reservation lapses, within seconds.
import { DEFAULT_LEASE, newHolderId } from '../lease';

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
  /** Saves the answer of a key this store's holder reserved (not one another process has taken over since). */
  complete(scope: IdempotencyScope, answer: SavedAnswer): Promise<void>;
  /** Drops this holder's reservation of a request that failed without a definite answer, so it can be retried. */
  release(scope: IdempotencyScope): Promise<void>;
}

export interface IdempotencyStoreOptions {
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /**
   * A reservation not renewed for this long is taken to be abandoned by a dead process (default
   * DEFAULT_LEASE.leaseMs, 5 s); the holder's heartbeat (store/lease.ts) renews it well within that.
   */
  leaseMs?: number;
  /** Who holds the reservations this store makes (default: a new holder id per store). */
  holder?: string;
  /** Saved answers are kept this long (default 24 h). */
  retentionMs?: number;
}

/** Both stores prune finished and abandoned records at most this often, from reserve(). */
export const IDEMPOTENCY_PRUNE_INTERVAL_MS = 60_000;

/** The options with their defaults applied. */
export function idempotencyStoreSettings(options: IdempotencyStoreOptions) {
  return {
    now: options.now ?? Date.now,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE.leaseMs,
    holder: options.holder ?? newHolderId(),
    retentionMs: options.retentionMs ?? 24 * 3600_000,
  };
}

/** A stored record, as both stores read it back. */
export interface IdempotencyRecord {
  requestHash: string;
  state: 'pending' | 'done';
  /** When it was reserved or its holder last renewed it (milliseconds since the epoch). */
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
