// The one place that opens the API's databases, once per process: from the settings it picks the
// dialect (the ledger's: PostgreSQL when the ledger is there, same database and schema, one pool for
// every store; else SQLite files under the data dir) and opens each store, which creates its tables.
// The rest of the app holds the store contracts; only this folder knows tables, SQL and pools.
import { join } from 'node:path';
import { PostgresIdempotencyStore } from './idempotency/postgres';
import { SqliteIdempotencyStore } from './idempotency/sqlite';
import { PostgresNonceStore } from './nonces/postgres';
import { SqliteNonceStore } from './nonces/sqlite';
import { PostgresPayoutStore } from './payouts/postgres';
import { SqlitePayoutStore } from './payouts/sqlite';
import type { PostgresPool, PostgresPoolOptions } from './postgres/pool';
import { openPostgresPool } from './postgres/pool';
import { PostgresRateLimitStore, PostgresStreamSlots } from './rate-limit/postgres';
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
}

export type ApiStores = SqliteApiStores | PostgresApiStores;

export function openApiStores(dir: string, vaultMasterKey: Uint8Array): SqliteApiStores {
  return {
    vault: new SqliteKeyVault(join(dir, 'vault.sqlite'), vaultMasterKey),
    nonces: new SqliteNonceStore(join(dir, 'nonces.sqlite')),
    idempotency: new SqliteIdempotencyStore(join(dir, 'idempotency.sqlite')),
    payouts: new SqlitePayoutStore(join(dir, 'payouts.sqlite')),
  };
}

/** Opens the pool and creates the stores' tables if missing. */
export async function openPostgresApiStores(
  options: PostgresPoolOptions,
  vaultMasterKey: Uint8Array,
): Promise<PostgresApiStores> {
  const pool = await openPostgresPool(options);
  try {
    return {
      vault: await PostgresKeyVault.open(pool, vaultMasterKey),
      nonces: await PostgresNonceStore.open(pool),
      idempotency: await PostgresIdempotencyStore.open(pool),
      payouts: await PostgresPayoutStore.open(pool),
      rateLimits: await PostgresRateLimitStore.open(pool),
      streamSlots: await PostgresStreamSlots.open(pool),
      pool,
    };
  } catch (error) {
    await pool.end();
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

/** Closes SQLite stores at once (no promise to await); PostgreSQL ones resolve when the pool has ended. */
export function closeApiStores(stores: SqliteApiStores): void;
export function closeApiStores(stores: ApiStores): Promise<void>;
export function closeApiStores(stores: ApiStores): void | Promise<void> {
  if ('pool' in stores) return stores.pool.end();
  stores.vault.close();
  stores.nonces.close();
  stores.idempotency.close();
  stores.payouts.close();
  return Promise.resolve();
}
