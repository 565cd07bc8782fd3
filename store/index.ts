// The one place that opens the API's databases, once per process: from the settings it picks the
// dialect (the ledger's: PostgreSQL when the ledger is there, same database and schema, one pool for
// every store; else SQLite files under the data dir) and opens each store, which creates its tables.
// The rest of the app holds the store contracts; only this folder knows tables, SQL and pools.
// The rows a process holds in them (reserved Idempotency-Keys, event-stream slots) are leases its heartbeat
// renews (lease.ts); on PostgreSQL its presence (postgres/presence.ts) frees them the moment it dies;
// closeApiStores gives back what it still holds.
import { dataFile } from './data-files';
import { idempotencyLeases, PostgresIdempotencyStore } from './idempotency/postgres';
import { SqliteIdempotencyStore } from './idempotency/sqlite';
import { PostgresNonceStore } from './nonces/postgres';
import { SqliteNonceStore } from './nonces/sqlite';
import { PostgresPayoutStore } from './payouts/postgres';
import { SqlitePayoutStore } from './payouts/sqlite';
import type { PostgresPool, PostgresPoolOptions } from './postgres/pool';
import { openPostgresPool } from './postgres/pool';
import { HolderPresence } from './postgres/presence';
import { DEFAULT_LEASE, HolderHeartbeat, newHolderId } from './lease';
import { PostgresRateLimitStore, PostgresStreamSlots } from './rate-limit/postgres';
import { streamSlotLeases } from './stream-caps/leases';
import { PostgresKeyVault } from './vault/postgres';
import { SqliteKeyVault } from './vault/sqlite';

export type { NonceStore, NonceStoreOptions, SqliteNonceStoreOptions } from './nonces/sqlite';
export { SqliteNonceStore } from './nonces/sqlite';
export { PostgresNonceStore } from './nonces/postgres';
export type { PostgresPool, PostgresPoolOptions } from './postgres/pool';
export { openPostgresPool } from './postgres/pool';

/** Where the databases are: the ledger's configuration decides the dialect of every store. */
export type DatabaseConfig =
  { kind: 'sqlite' } | { kind: 'postgres'; connectionString: string; schema?: string };

export interface ApiStoreSettings {
  dataDir: string;
  ledger: DatabaseConfig;
  vaultMasterKey: Uint8Array;
}

/** The API's own stores, each a SQLite file in `dir`. */
export interface SqliteApiStores {
  vault: SqliteKeyVault;
  nonces: SqliteNonceStore;
  idempotency: SqliteIdempotencyStore;
  payouts: SqlitePayoutStore;
  /** Renews this process's reserved keys; closeApiStores gives them back. */
  lease: HolderHeartbeat;
}

/** The API's own stores as tables of a PostgreSQL database, on one pool. */
export interface PostgresApiStores {
  vault: PostgresKeyVault;
  nonces: PostgresNonceStore;
  idempotency: PostgresIdempotencyStore;
  payouts: PostgresPayoutStore;
  /** Rate-limit buckets and event-stream slots shared by the API processes (SQLite: in memory). */
  rateLimits: PostgresRateLimitStore;
  streamSlots: PostgresStreamSlots;
  pool: PostgresPool;
  /** Renews this process's reserved keys and stream slots, on a connection of its own (`leasePool`). */
  lease: HolderHeartbeat;
  leasePool: PostgresPool;
  /** Tells the other processes that this one lives: its rows are taken over the moment it dies. */
  presence: HolderPresence;
}

export type ApiStores = SqliteApiStores | PostgresApiStores;

export function openApiStores(dir: string, vaultMasterKey: Uint8Array): SqliteApiStores {
  const holder = newHolderId();
  const idempotency = new SqliteIdempotencyStore(dataFile(dir, 'idempotency'), {
    holder,
    leaseMs: DEFAULT_LEASE.leaseMs,
  });
  return {
    vault: new SqliteKeyVault(dataFile(dir, 'vault'), vaultMasterKey),
    nonces: new SqliteNonceStore(dataFile(dir, 'nonces')),
    idempotency,
    payouts: new SqlitePayoutStore(dataFile(dir, 'payouts')),
    lease: new HolderHeartbeat({ holder, rows: [idempotency.leases] }).start(),
  };
}

/** Opens the pool and creates the stores' tables if missing. */
export async function openPostgresApiStores(
  options: PostgresPoolOptions,
  vaultMasterKey: Uint8Array,
): Promise<PostgresApiStores> {
  const pool = await openPostgresPool(options);
  // The heartbeat's own connection: a beat never queues behind the requests that hold the main pool.
  const leasePool = await openPostgresPool({ ...options, poolSize: 1 }).catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  const holder = newHolderId();
  const { leaseMs } = DEFAULT_LEASE;
  let presence: HolderPresence | undefined;
  try {
    presence = await HolderPresence.take({ connection: options, pool, holder });
    const stores = {
      vault: await PostgresKeyVault.open(pool, vaultMasterKey),
      nonces: await PostgresNonceStore.open(pool),
      idempotency: await PostgresIdempotencyStore.open(pool, { holder, leaseMs }),
      payouts: await PostgresPayoutStore.open(pool),
      rateLimits: await PostgresRateLimitStore.open(pool),
      streamSlots: await PostgresStreamSlots.open(pool, { holder, ttlMs: leaseMs }),
      pool,
      leasePool,
      presence,
    };
    const rows = [idempotencyLeases(leasePool), streamSlotLeases(leasePool, leaseMs)];
    return { ...stores, lease: new HolderHeartbeat({ holder, rows }).start() };
  } catch (error) {
    await presence?.close();
    await Promise.all([pool.end(), leasePool.end()]);
    throw error;
  }
}

/** PostgreSQL when the ledger is there (same database and schema, a pool of its own), else SQLite files. */
export async function openApiStoresFor(settings: ApiStoreSettings): Promise<ApiStores> {
  const { ledger } = settings;
  if (ledger.kind === 'postgres') {
    return openPostgresApiStores(
      {
        connectionString: ledger.connectionString,
        ...(ledger.schema === undefined ? {} : { schema: ledger.schema }),
      },
      settings.vaultMasterKey,
    );
  }
  return openApiStores(settings.dataDir, settings.vaultMasterKey);
}

/**
 * Gives back the keys and slots this process still holds and closes the stores: SQLite ones at once (no
 * promise to await), PostgreSQL ones when the pools have ended (resolving how many rows were given back).
 */
export function closeApiStores(stores: SqliteApiStores): void;
export function closeApiStores(stores: ApiStores): Promise<number>;
export function closeApiStores(stores: ApiStores): void | Promise<number> {
  if ('pool' in stores) return closePostgresApiStores(stores);
  stores.lease.halt();
  // better-sqlite3 runs the statement before this promise resolves, so the file can close right after.
  void stores.idempotency.leases.releaseAll(stores.lease.holder);
  stores.vault.close();
  stores.nonces.close();
  stores.idempotency.close();
  stores.payouts.close();
  return Promise.resolve(0);
}

async function closePostgresApiStores(stores: PostgresApiStores): Promise<number> {
  try {
    return await stores.lease.stop();
  } finally {
    await stores.presence.close();
    await Promise.all([stores.pool.end(), stores.leasePool.end()]);
  }
}
