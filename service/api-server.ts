// Builds every dependency of the API from the settings and serves it over HTTP (the start script
// calls this). Stores live under the data dir: vault.sqlite, nonces.sqlite, idempotency.sqlite.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../activities/ledger';
import { createApp, type App } from '../api/app';
import { SqliteNonceStore } from '../api/auth';
import { SqliteIdempotencyStore } from '../api/idempotency';
import { SqliteKeyVault } from '../api/vault';
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
export interface ApiStores {
  vault: SqliteKeyVault;
  nonces: SqliteNonceStore;
  idempotency: SqliteIdempotencyStore;
}

export function openApiStores(dir: string, vaultMasterKey: Uint8Array): ApiStores {
  return {
    vault: new SqliteKeyVault(join(dir, 'vault.sqlite'), vaultMasterKey),
    nonces: new SqliteNonceStore(join(dir, 'nonces.sqlite')),
    idempotency: new SqliteIdempotencyStore(join(dir, 'idempotency.sqlite')),
  };
}

export function closeApiStores(stores: ApiStores): void {
  stores.vault.close();
  stores.nonces.close();
  stores.idempotency.close();
}

function listen(app: App, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, () => resolve(server));
    server.once('error', reject);
  });
}

export async function startApiServer(settings: Settings, options: ApiServerOptions = {}): Promise<ApiServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  mkdirSync(settings.dataDir, { recursive: true });
  const temporal = await connectTemporalClient({
    codecKey: settings.payloadCodecKey,
    ...(options.env ? { env: options.env } : {}),
  });
  const ledger = await openLedger(settings.ledger);
  const stores = openApiStores(settings.dataDir, settings.vaultMasterKey);
  const app = createApp({
    temporal: temporal.client,
    taskQueue: options.taskQueue ?? TASK_QUEUE,
    ledger,
    ...stores,
    params: settings.params,
    operatorToken: settings.operatorToken,
  });
  const server = await listen(app, settings.port, hostname);
  const port = (server.address() as AddressInfo).port;
  return {
    app,
    url: `http://${hostname}:${port}`,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets would hold close() open.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await temporal.connection.close();
      await ledger.close();
      closeApiStores(stores);
    },
  };
}
