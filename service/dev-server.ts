// The embedded default's Temporal: the CLI's dev server with its Web UI, persisted in a SQLite file.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dataFile } from '../store/data-files';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { devServerSearchAttributeArgs, embedded, serverPaths } from '../temporal.config';
import { DEFAULT_RETENTION_DAYS } from './settings';

export interface DevServer {
  address: string;
  uiUrl: string;
  /** The codec server the UI decodes payloads with, if any. */
  uiCodecEndpoint?: string;
  dbFile: string;
  pid: number;
  stop(): Promise<void>;
}

async function waitUntilServing(
  address: string,
  child: ChildProcess,
  logFile: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`Temporal dev server exited with code ${child.exitCode}; see ${logFile}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(
    `Temporal dev server did not answer at ${address} within ${timeoutMs} ms: ${String(lastError)}`,
  );
}

/** Sets the namespace's retention of closed workflows (the dev server creates it with its own default). */
export async function setRetention(address: string, namespace: string, retentionDays: number): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.updateNamespace({
      namespace,
      config: { workflowExecutionRetentionTtl: msToTs(`${retentionDays} days`) },
    });
  } finally {
    await connection.close();
  }
}

/**
 * The SQLite pragmas the dev server opens its file with (docs/performance.md, "The dev server"): a
 * write-ahead log instead of the CLI's rollback journal (one fsync per commit instead of several;
 * bench/servers/pragmas.ts), every commit still synced before it is acknowledged (`synchronous=FULL`,
 * as the ledger's file), so a power cut loses nothing Temporal has confirmed.
 */
export const DEV_SERVER_SQLITE_PRAGMAS: readonly string[] = ['journal_mode=wal', 'synchronous=full'];

/** The journal mode a SQLite file is in, from its header (bytes 18-19: 1 rollback journal, 2 WAL). */
export function sqliteJournalMode(file: string): 'wal' | 'rollback' {
  const header = Buffer.alloc(2);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 2, 18);
  } finally {
    closeSync(fd);
  }
  return header[0] === 2 ? 'wal' : 'rollback';
}

export interface DevServerOptions {
  port?: number;
  uiPort?: number;
  /** The API's codec server (`http://…/codec`), for the Web UI to decode payloads with. */
  uiCodecEndpoint?: string;
  /** `PRAGMA=VALUE` pairs for `--sqlite-pragma` (benchmarks compare them). */
  sqlitePragmas?: readonly string[];
}

/** Starts the dev server; its own log goes to `<dataDir>/temporal.log`. */
export async function startDevServer(
  dataDir = embedded.dataDir,
  retentionDays = DEFAULT_RETENTION_DAYS,
  options: DevServerOptions = {},
): Promise<DevServer> {
  const {
    port = embedded.port,
    uiPort = embedded.uiPort,
    sqlitePragmas = DEV_SERVER_SQLITE_PRAGMAS,
    uiCodecEndpoint,
  } = options;
  mkdirSync(dataDir, { recursive: true });
  const dbFile = dataFile(dataDir, 'temporal');
  const address = `127.0.0.1:${port}`;
  const logFile = dataFile(dataDir, 'temporalLog');
  const child = spawn(
    serverPaths.cli,
    [
      'server',
      'start-dev',
      '--db-filename',
      dbFile,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--namespace',
      embedded.namespace,
      '--log-level',
      'warn',
      ...(uiCodecEndpoint ? ['--ui-codec-endpoint', uiCodecEndpoint] : []),
      ...devServerSearchAttributeArgs(),
      ...sqlitePragmas.flatMap((pragma) => ['--sqlite-pragma', pragma]),
    ],
    { stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntilServing(address, child, logFile, 30_000);
  await setRetention(address, embedded.namespace, retentionDays);
  return {
    address,
    uiUrl: `http://127.0.0.1:${uiPort}`,
    ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}),
    pid: child.pid!,
    dbFile,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
