// Builds every dependency of the API from the settings and serves it over HTTP (the start script
// calls this). The API's own stores are opened by store/ (openApiStoresFor), beside the ledger.
// The rows a process holds in them are leases its heartbeat renews (store/lease.ts); close() drains the
// requests in flight, then gives back what it still holds.
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { openLedger } from '../store/ledger';
import { openRecords } from '../store/records';
import { openOutcomeLog } from '../store/outcomes';
import { openFeed } from '../store/agent-feed';
import { startAgentFeed } from './agent-feed';
import { createApp, type App } from '../api/app';
import { closeApiStores, openApiStoresFor } from '../store';
import { TASK_QUEUE } from '../temporal.config';
import { DEFAULT_DRAIN_MS, RequestDrain } from './api-drain';
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
  /** How long close() waits for requests in flight (default DEFAULT_DRAIN_MS). */
  drainMs?: number;
  /** Where close() says what it did (default console.log). */
  log?: (line: string) => void;
}

/**
 * Connections a burst may open before the API accepts them; past it the kernel drops or resets them.
 * Node's default is 511, small for a crowd of agents; the kernel caps it at its somaxconn.
 */
const LISTEN_BACKLOG = 4096;

function listen(fetch: App['fetch'], port: number, hostname: string): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = createAdaptorServer({ fetch });
    server.once('error', reject);
    server.listen({ port, host: hostname, backlog: LISTEN_BACKLOG }, () => resolve(server));
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
  const outcomes = await openOutcomeLog(settings.ledger);
  const stores = await openApiStoresFor(settings);
  const taskQueue = options.taskQueue ?? TASK_QUEUE;
  const feedStore = await openFeed(settings);
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
    cursorKey: settings.cursorKey,
    feed: feed.deps,
    outcomes: { log: outcomes, trustAnchors: settings.trustAnchors },
    codecServer: {
      codec: createPayloadCodec(settings.payloadCodecKey),
      loopbackDecode: settings.embedded,
      allowedOrigins: settings.codecUiOrigins,
    },
    trustedProxies: settings.trustedProxies,
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
      await feed.stop();
      await feedStore.close();
      await temporal.connection.close();
      await ledger.close();
      await records.close();
      await outcomes.close();
      const released = await closeApiStores(stores);
      log(
        `api: stopped: ${left === 0 ? 'every request in flight answered' : `${left} requests cut off unanswered`}; ` +
          `${released} Idempotency-Keys and stream slots still held given back`,
      );
    },
  };
}
