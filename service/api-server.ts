// Builds every dependency of the API from the settings and serves it over HTTP (the start script
// calls this). The API's own stores are opened by store/ (openApiStoresFor), beside the ledger.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { openLedger } from '../activities/ledger';
import { openRecords } from '../activities/records';
import { openFeed } from '../store/agent-feed';
import { startAgentFeed } from './agent-feed';
import { createApp, type App } from '../api/app';
import { closeApiStores, openApiStoresFor } from '../store';
import { TASK_QUEUE } from '../temporal.config';
import type { Settings } from './settings';
import { createPayloadCodec } from './codec';
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

function listen(app: App, port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, () => resolve(server));
    server.once('error', reject);
  });
}

/** The host part of the API's URL: a wildcard address is reached on loopback; IPv6 goes in brackets. */
export function urlHost(hostname: string): string {
  if (hostname === '0.0.0.0') return '127.0.0.1';
  if (hostname === '::') return '[::1]';
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

/**
 * Where the embedded dev server's UI calls the codec server: known before the API listens (the dev server
 * starts first), so none when PORT is 0 (any free port).
 */
export function codecEndpoint(settings: Pick<Settings, 'host' | 'port'>): string | undefined {
  return settings.port === 0 ? undefined : `http://${urlHost(settings.host)}:${settings.port}/codec`;
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
  const feedStore = await openFeed(settings);
  const feed = startAgentFeed({
    client: temporal.client,
    taskQueue,
    records,
    store: feedStore,
    cursorSecret: settings.operatorToken,
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
    codecServer: {
      codec: createPayloadCodec(settings.payloadCodecKey),
      loopbackDecode: settings.embedded,
      allowedOrigins: settings.codecUiOrigins,
    },
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
