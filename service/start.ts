// `npm start`: the whole service in one process tree. With no Temporal cluster configured it runs the
// embedded default — the dev server (Web UI, SQLite file under the data dir), the worker and the API — and
// stops them together on Ctrl-C or SIGTERM. `npm start -- worker` or `npm start -- api` runs one role only,
// for deployments that scale workers and API processes separately against a cluster.
import { Connection } from '@temporalio/client';
import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { temporalConnectConfig } from '../temporal.config';
import { registerSearchAttributes } from './search-attributes';
import { codecEndpoint, startApiServer } from './api-server';
import { startDevServer, type DevServer } from './dev-server';
import { loadSettings, SettingsError } from './settings';
import { startWorker } from './worker-process';
import { watchEventLoopStalls } from './stall-watch';

type ProcessRole = 'all' | 'worker' | 'api';

function parseRole(arg: string | undefined): ProcessRole {
  if (arg === undefined || arg === 'all' || arg === 'worker' || arg === 'api') return arg ?? 'all';
  throw new SettingsError('role', `role: expected "all", "worker" or "api", got "${arg}"`);
}

async function ensureSearchAttributes(): Promise<void> {
  const config = temporalConnectConfig();
  const connection = await Connection.connect(config.connectionOptions);
  try {
    await registerSearchAttributes(connection, config.namespace ?? 'default');
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger((process.env.LOG_LEVEL as LogLevel | undefined) ?? 'WARN') });
  const role = parseRole(process.argv[2]);
  const settings = loadSettings();
  const stops: Array<() => Promise<void>> = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    for (const stop of stops.reverse()) {
      await stop().catch((err: unknown) => console.error('while stopping:', err));
    }
    process.exit(code);
  };
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    let devServer: DevServer | undefined;
    if (settings.embedded) {
      // Only a process that serves the API serves the codec the UI is pointed at.
      const uiCodecEndpoint = role === 'worker' ? undefined : codecEndpoint(settings);
      devServer = await startDevServer(settings.dataDir, settings.retentionDays, {
        ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}),
      });
      stops.push(() => devServer!.stop());
    } else {
      await ensureSearchAttributes();
    }
    if (role !== 'api') {
      const worker = await startWorker(settings);
      stops.push(() => worker.stop());
      const unwatch = watchEventLoopStalls((line) => console.warn(`worker: ${line}`));
      stops.push(async () => unwatch());
    }
    if (role !== 'worker') {
      const api = await startApiServer(settings);
      stops.push(() => api.close());
      console.log(`API:          ${api.url}  (health ${api.url}/health, docs ${api.url}/docs)`);
    }
    if (devServer) {
      console.log(
        `Temporal UI:  ${devServer.uiUrl}` +
          (devServer.uiCodecEndpoint
            ? `  (decoding with ${devServer.uiCodecEndpoint})`
            : '  (payloads sealed: no codec)'),
      );
      console.log(`Temporal:     ${devServer.address} (data in ${devServer.dbFile})`);
    }
    if (settings.secretsFile)
      console.log(`Secrets:      ${settings.secretsFile} (operator token, vault, codec and cursor keys)`);
    if (role !== 'worker' && !settings.webhookAllowPrivate)
      console.log(
        'Webhooks:     https to public addresses only; for agents with a local receiver (http, loopback),\n' +
          '              start with OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE=1 (never on a published service)',
      );
    console.log('Ready. Ctrl-C stops everything.');
  } catch (err) {
    console.error(err instanceof SettingsError ? `invalid setting — ${err.message}` : err);
    await stopAll(1);
  }
}

void main();
