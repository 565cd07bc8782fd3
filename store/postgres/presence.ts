// A process's presence in the database, beside its leases (store/lease.ts). The process holds a session
// advisory lock, keyed by its holder id, on a connection of its own for as long as it lives. PostgreSQL drops
// the lock the moment that connection closes, and the operating system closes it when the process dies,
// SIGKILL included: so another process tells a dead holder of leased rows from a slow one at once, and takes
// its rows over without waiting out the lease. The lease still covers what presence cannot see: a host that
// vanishes without closing its connections keeps their locks until TCP gives up on them.
import { Client } from 'pg';
import type { PostgresPool, PostgresPoolOptions } from './pool';
import { createTables } from './pool';

/**
 * The holders that hold a presence lock. Only their rows are taken over on presence: a row of a holder not
 * listed here (one that never took presence) lapses with its lease alone.
 */
export const LEASE_HOLDERS_DDL = `CREATE TABLE IF NOT EXISTS api_lease_holders (
  holder TEXT PRIMARY KEY,
  since BIGINT NOT NULL
);`;

/** The presence locks' namespace: the first key of the two-key form, the second being hashtext(holder). */
export const PRESENCE_LOCK_SPACE = 4_242_020;

/**
 * SQL true for a listed holder whose presence lock nobody holds: its process is gone. Trying the lock takes
 * it for the statement (or transaction) only. Two holders whose ids hash alike share a lock, so a dead one
 * may look alive (its rows then lapse with the lease): never the other way round.
 */
export const HOLDER_GONE_SQL = (holder: string) =>
  `pg_try_advisory_xact_lock(${PRESENCE_LOCK_SPACE}, hashtext(${holder}))`;

/** Whether `holder` took presence and its process has since gone (its connection closed). */
export async function holderGone(pool: PostgresPool, holder: string): Promise<boolean> {
  const { rows } = await pool.query<{ gone: boolean }>(
    `SELECT ${HOLDER_GONE_SQL('holder')} AS gone FROM api_lease_holders WHERE holder = $1`,
    [holder],
  );
  return rows[0]?.gone === true;
}

/** A holder gone this long has had its rows taken over or lapsed long since: its entry goes. */
const FORGET_GONE_AFTER_MS = 24 * 3600_000;

export interface HolderPresenceOptions {
  connection: PostgresPoolOptions;
  /** The pool the holders' list is written with (its schema's). */
  pool: PostgresPool;
  holder: string;
  /** Where a lost presence connection is reported (default console.warn). */
  warn?: (message: string) => void;
  /** How long to wait before connecting again after the presence connection was lost (default 1 s). */
  reconnectMs?: number;
}

/** Holds a holder's presence lock while the process lives; `close()` gives it up. */
export class HolderPresence {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly warn: (message: string) => void;

  private constructor(private readonly options: HolderPresenceOptions) {
    this.warn = options.warn ?? ((m) => console.warn(m));
  }

  /** Takes the lock, then lists the holder: no row of its can be judged before the lock is held. */
  static async take(options: HolderPresenceOptions): Promise<HolderPresence> {
    const presence = new HolderPresence(options);
    await presence.connect();
    const { pool, holder } = options;
    await createTables(pool, LEASE_HOLDERS_DDL);
    await pool.query(`DELETE FROM api_lease_holders WHERE since < $1 AND ${HOLDER_GONE_SQL('holder')}`, [
      Date.now() - FORGET_GONE_AFTER_MS,
    ]);
    await pool.query(
      'INSERT INTO api_lease_holders (holder, since) VALUES ($1, $2) ON CONFLICT (holder) DO NOTHING',
      [holder, Date.now()],
    );
    return presence;
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.options.connection.connectionString,
      keepAlive: true,
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(${PRESENCE_LOCK_SPACE}, hashtext($1))`, [
        this.options.holder,
      ]);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) await client.end().catch(() => undefined);
    else this.client = client;
  }

  /** The connection dropped while the process lives: until it is back, others may take over its rows. */
  private lost(client: Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.warn(
      `presence of ${this.options.holder} lost: other processes may take over the keys it holds until it is back`,
    );
    this.reconnect();
  }

  private reconnect(): void {
    this.retry = setTimeout(() => {
      this.connect().catch(() => {
        if (!this.closed) this.reconnect();
      });
    }, this.options.reconnectMs ?? 1_000).unref();
  }

  /** Gives up the lock and leaves the holders' list (the process's rows were given back before). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await this.options.pool
      .query('DELETE FROM api_lease_holders WHERE holder = $1', [this.options.holder])
      .catch(() => undefined);
    await client?.end().catch(() => undefined);
  }
}
