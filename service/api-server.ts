// Builds every dependency of the API from the settings and serves it over HTTP (the start script
// calls this). The API's own stores (key vault, nonces, idempotency records) live next to the
// ledger: with a PostgreSQL ledger in the same database (tables `api_*`, shared by every API
// process), else in SQLite files under the data dir (vault.sqlite, nonces.sqlite, idempotency.sqlite, payouts.sqlite).
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../activities/ledger';
import { openRecords } from '../activities/records';
import { openFeed } from '../activities/agent-feed/store';
import { startAgentFeed } from './agent-feed';
import { createApp, type App } from '../api/app';
import type { PostgresPool, PostgresPoolOptions } from '../api/auth';
import { PostgresNonceStore, SqliteNonceStore, openPostgresPool } from '../api/auth';
import { SqliteIdempotencyStore } from '../api/idempotency-sqlite';
import { PostgresIdempotencyStore } from '../api/idempotency-postgres';
import { SqlitePayoutStore } from '../api/payouts';
import { PostgresPayoutStore } from '../api/payouts-postgres';
import { PostgresRateLimitStore, PostgresStreamSlots } from '../api/rate-limit-postgres';
import { SqliteKeyVault } from '../api/vault';
import { PostgresKeyVault } from '../api/vault-postgres';
import { TASK_QUEUE } from '../temporal.config';
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

function listen(app: App, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, () => resolve(server));
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
  const taskQueue = options.taskQueue ?? TASK_QUEUE;
  const feedStore = await openFeed(settings.ledger);
  const feed = startAgentFeed({
    client: temporal.client,
    taskQueue,
    records,
    store: feedStore,
    webhookAllowPrivate: settings.webhookAllowPrivate,
    projector: { reminderLeadMs: settings.feedReminderLeadMs },
  });
  const app = createApp({
    temporal: temporal.client,
    taskQueue,
    ledger,
    records,
    vault: stores.vault,
    nonces: stores.nonces,
    idempotency: stores.idempotency,
    payouts: stores.payouts,
    params: settings.params,
    operatorToken: settings.operatorToken,
    feed: feed.deps,
    limits: {
      settings: settings.rateLimits,
      ...('pool' in stores ? { store: stores.rateLimits, streams: stores.streamSlots } : {}),
    },
  });
  const server = await listen(app, settings.port, hostname);
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    url: `http://${urlHost(hostname)}:${port}`,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await feed.stop();
      await feedStore.close();
      await temporal.connection.close();
      await ledger.close();
      await records.close();
      await closeApiStores(stores);
    },
  };
}
