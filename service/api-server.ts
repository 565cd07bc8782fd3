// Builds every dependency of the API from the settings and serves it over HTTP (the start script
// calls this). The API's own stores (key vault, nonces, idempotency records) live next to the
// ledger: with a PostgreSQL ledger in the same database (tables `api_*`, shared by every API
// process), else in SQLite files under the data dir (vault.sqlite, nonces.sqlite, idempotency.sqlite, payouts.sqlite).
// The rows a process holds in them (reserved Idempotency-Keys, event-stream slots) are leases its heartbeat
// renews (api/lease.ts); close() drains the requests in flight, then gives back what it still holds.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../activities/ledger';
import { openRecords } from '../activities/records';
import { createApp, type App } from '../api/app';
import type { PostgresPool, PostgresPoolOptions } from '../api/auth';
import { PostgresNonceStore, SqliteNonceStore, openPostgresPool } from '../api/auth';
import { SqliteIdempotencyStore } from '../api/idempotency-sqlite';
import { idempotencyLeases, PostgresIdempotencyStore } from '../api/idempotency-postgres';
import { DEFAULT_LEASE, HolderHeartbeat, newHolderId } from '../api/lease';
import { streamSlotLeases } from '../api/stream-slot-leases';
import { SqlitePayoutStore } from '../api/payouts';
import { PostgresPayoutStore } from '../api/payouts-postgres';
import { PostgresRateLimitStore, PostgresStreamSlots } from '../api/rate-limit-postgres';
import { SqliteKeyVault } from '../api/vault';
import { PostgresKeyVault } from '../api/vault-postgres';
import { TASK_QUEUE } from '../temporal.config';
import { DEFAULT_DRAIN_MS, RequestDrain } from './api-drain';
import type { Settings } from './settings';
import { connectTemporalClient } from './temporal-client';

export interface ApiServer {
  app: App;
  /** `http://<hostname>:<port>` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ApiServerOptions {
  /** Where Temporal is (envconfig: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, profiles…); default process.env. */
  env?: NodeJS.ProcessEnv;
  hostname?: string;
  taskQueue?: string;
  /** How long close() waits for requests in flight (default DEFAULT_DRAIN_MS). */
  drainMs?: number;
  /** Where close() says what it did (default console.log). */
  log?: (line: string) => void;
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
}

export type ApiStores = SqliteApiStores | PostgresApiStores;

export function openApiStores(dir: string, vaultMasterKey: Uint8Array): SqliteApiStores {
  const holder = newHolderId();
  const idempotency = new SqliteIdempotencyStore(join(dir, 'idempotency.sqlite'), {
    holder,
    leaseMs: DEFAULT_LEASE.leaseMs,
  });
  return {
    vault: new SqliteKeyVault(join(dir, 'vault.sqlite'), vaultMasterKey),
    nonces: new SqliteNonceStore(join(dir, 'nonces.sqlite')),
    idempotency,
    payouts: new SqlitePayoutStore(join(dir, 'payouts.sqlite')),
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
  try {
    const stores = {
      vault: await PostgresKeyVault.open(pool, vaultMasterKey),
      nonces: await PostgresNonceStore.open(pool),
      idempotency: await PostgresIdempotencyStore.open(pool, { holder, leaseMs }),
      payouts: await PostgresPayoutStore.open(pool),
      rateLimits: await PostgresRateLimitStore.open(pool),
      streamSlots: await PostgresStreamSlots.open(pool, { holder, ttlMs: leaseMs }),
      pool,
      leasePool,
    };
    const rows = [idempotencyLeases(leasePool), streamSlotLeases(leasePool, leaseMs)];
    return { ...stores, lease: new HolderHeartbeat({ holder, rows }).start() };
  } catch (error) {
    await Promise.all([pool.end(), leasePool.end()]);
    throw error;
  }
}

/** PostgreSQL when the ledger is there (same database and schema, a pool of its own), else SQLite files. */
export async function openApiStoresFor(
  settings: Pick<Settings, 'dataDir' | 'ledger' | 'vaultMasterKey'>,
): Promise<ApiStores> {
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
    await Promise.all([stores.pool.end(), stores.leasePool.end()]);
  }
}

function listen(fetch: App['fetch'], port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, () => resolve(server));
    server.once('error', reject);
  });
}

/** The host part of the API's URL: a wildcard address is reached on loopback; IPv6 goes in brackets. */
function urlHost(hostname: string): string {
  if (hostname === '0.0.0.0') return '127.0.0.1';
  if (hostname === '::') return '[::1]';
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

export async function startApiServer(settings: Settings, options: ApiServerOptions = {}): Promise<ApiServer> {
  const hostname = options.hostname ?? settings.host;
  mkdirSync(settings.dataDir, { recursive: true });
  const temporal = await connectTemporalClient({
    codecKey: settings.payloadCodecKey,
    ...(options.env ? { env: options.env } : {}),
  });
  const ledger = await openLedger(settings.ledger);
  const records = await openRecords(settings.ledger);
  const stores = await openApiStoresFor(settings);
  const app = createApp({
    temporal: temporal.client,
    taskQueue: options.taskQueue ?? TASK_QUEUE,
    ledger,
    records,
    vault: stores.vault,
    nonces: stores.nonces,
    idempotency: stores.idempotency,
    payouts: stores.payouts,
    params: settings.params,
    operatorToken: settings.operatorToken,
    limits: {
      settings: settings.rateLimits,
      ...('pool' in stores ? { store: stores.rateLimits, streams: stores.streamSlots } : {}),
    },
  });
  const drain = new RequestDrain();
  const server = await listen(drain.wrap(app.fetch), settings.port, hostname);
  const port = (server.address() as AddressInfo).port;
  const log = options.log ?? ((line: string) => console.log(line));
  const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
  return {
    app,
    url: `http://${urlHost(hostname)}:${port}`,
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      log(`api: stopping: no new requests; ${drain.pending} in flight, waiting up to ${drainMs} ms`);
      const left = await drain.drain(drainMs);
      // Keep-alive sockets (and event streams) would hold close() open.
      if ('closeAllConnections' in server) server.closeAllConnections();
      await closed;
      await temporal.connection.close();
      await ledger.close();
      await records.close();
      const released = await closeApiStores(stores);
      log(
        `api: stopped: ${left === 0 ? 'every request in flight answered' : `${left} requests cut off unanswered`}; ` +
          `${released} Idempotency-Keys and stream slots still held given back`,
      );
    },
  };
}
