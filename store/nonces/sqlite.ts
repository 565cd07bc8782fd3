// Remembers each (keyid, nonce) a valid signature used, so a replayed request is refused, also
// after a restart. A nonce is kept until its signature's `expires` plus a margin: past `expires`
// the signature itself is refused, so the nonce can no longer be replayed.
import type { Address } from '../../workflows/rules/address';
import type { SqliteDatabase } from '../sqlite/open';
import { openSqliteFile } from '../sqlite/open';

export interface NonceStore {
  /**
   * Records `nonce` for `keyid` until `expires` (unix seconds). Resolves false when that pair was
   * already recorded (a replay); atomic, so of two concurrent identical calls exactly one gets true.
   */
  consume(keyid: Address, nonce: string, expires: number): Promise<boolean>;
}

export interface NonceStoreOptions {
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /** Kept past `expires` in case the server clock steps back (default 60 s). */
  retentionMarginSeconds?: number;
  /** How often consume() also deletes nonces past retention (default every 60 s). */
  pruneIntervalSeconds?: number;
}
export type SqliteNonceStoreOptions = NonceStoreOptions;

/** The options with their defaults applied (shared by the SQLite and PostgreSQL stores). */
export function nonceStoreSettings(options: NonceStoreOptions) {
  return {
    now: options.now ?? Date.now,
    margin: options.retentionMarginSeconds ?? 60,
    pruneInterval: options.pruneIntervalSeconds ?? 60,
  };
}

export class SqliteNonceStore implements NonceStore {
  private readonly db: SqliteDatabase;
  private readonly now: () => number;
  private readonly margin: number;
  private readonly pruneInterval: number;
  private lastPrune = -Infinity;
  private readonly insert;
  private readonly deleteExpired;

  constructor(path: string, options: NonceStoreOptions = {}) {
    ({ now: this.now, margin: this.margin, pruneInterval: this.pruneInterval } = nonceStoreSettings(options));
    this.db = openSqliteFile(path);
    this.db.exec(`CREATE TABLE IF NOT EXISTS signature_nonces (
      keyid TEXT NOT NULL,
      nonce TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      PRIMARY KEY (keyid, nonce)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS signature_nonces_expires_at ON signature_nonces (expires_at);`);
    this.insert = this.db.prepare(
      'INSERT INTO signature_nonces (keyid, nonce, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.deleteExpired = this.db.prepare('DELETE FROM signature_nonces WHERE expires_at < ?');
  }

  async consume(keyid: Address, nonce: string, expires: number): Promise<boolean> {
    const nowSeconds = Math.floor(this.now() / 1000);
    if (nowSeconds - this.lastPrune >= this.pruneInterval) this.prune();
    return this.insert.run(keyid, nonce, expires).changes === 1;
  }

  /** Deletes the nonces whose signatures expired more than the margin ago; returns how many. */
  prune(): number {
    const nowSeconds = Math.floor(this.now() / 1000);
    this.lastPrune = nowSeconds;
    return this.deleteExpired.run(nowSeconds - this.margin).changes;
  }

  /** Number of nonces held (for tests and metrics). */
  size(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM signature_nonces').get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
