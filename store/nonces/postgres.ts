// The nonce store on PostgreSQL: shared by every API process, so a request replayed to another
// host is refused too. Same rules as SqliteNonceStore (sqlite.ts).
import type { Address } from '../../workflows/rules/address';
import type { NonceStore, NonceStoreOptions } from './sqlite';
import { nonceStoreSettings } from './sqlite';
import type { PostgresPool } from '../postgres/pool';
import { createTables } from '../postgres/pool';

const TABLE = `CREATE TABLE IF NOT EXISTS api_signature_nonces (
  keyid TEXT NOT NULL,
  nonce TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (keyid, nonce)
);
CREATE INDEX IF NOT EXISTS api_signature_nonces_expires_at ON api_signature_nonces (expires_at);`;

export class PostgresNonceStore implements NonceStore {
  private readonly now: () => number;
  private readonly margin: number;
  private readonly pruneInterval: number;
  private lastPrune = -Infinity;

  private constructor(
    private readonly pool: PostgresPool,
    options: NonceStoreOptions,
  ) {
    ({ now: this.now, margin: this.margin, pruneInterval: this.pruneInterval } = nonceStoreSettings(options));
  }

  /** Creates the table if missing. The pool stays its opener's to close. */
  static async open(pool: PostgresPool, options: NonceStoreOptions = {}): Promise<PostgresNonceStore> {
    await createTables(pool, TABLE);
    return new PostgresNonceStore(pool, options);
  }

  async consume(keyid: Address, nonce: string, expires: number): Promise<boolean> {
    const nowSeconds = Math.floor(this.now() / 1000);
    if (nowSeconds - this.lastPrune >= this.pruneInterval) await this.prune();
    const inserted = await this.pool.query(
      'INSERT INTO api_signature_nonces (keyid, nonce, expires_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [keyid, nonce, expires],
    );
    return inserted.rowCount === 1;
  }

  /** Deletes the nonces whose signatures expired more than the margin ago; resolves how many. */
  async prune(): Promise<number> {
    const nowSeconds = Math.floor(this.now() / 1000);
    this.lastPrune = nowSeconds;
    const deleted = await this.pool.query('DELETE FROM api_signature_nonces WHERE expires_at < $1', [
      nowSeconds - this.margin,
    ]);
    return deleted.rowCount ?? 0;
  }

  /** Number of nonces held (for tests and metrics). */
  async size(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*) AS n FROM api_signature_nonces');
    return Number(rows[0]?.n ?? 0);
  }
}
