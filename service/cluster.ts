// The cluster profile (docs/scale.md): everything the service runs at scale, on one machine's loopback —
//   PostgreSQL 15 (Temporal persistence, SQL visibility, and the ledger/API tables in a third database),
//   the Temporal server (frontend, history, matching and worker services in one process, 8 history shards,
//   deploy/temporal/server.yaml + dynamicconfig.yaml), two contract workers and two API processes, each
//   `service/start.ts worker|api` with the settings a deployment would give it. Started and stopped together.
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openLedger } from '../store/ledger';
import { registerSearchAttributes } from './search-attributes';
import { freePortRange, ManagedProcess } from './cluster-process';
import { startPostgres, type PostgresServer } from './postgres-server';
import { prebuiltWorkflowBundle } from './workflow-bundle';

const ROOT = join(__dirname, '..');
// Keep in step with scripts/install-cluster.mjs.
const SERVER_DIR = join(ROOT, '.temporal/server/v1.32.1');
export const clusterPaths = {
  server: join(SERVER_DIR, 'server'),
  sqlTool: join(SERVER_DIR, 'sql'),
  schema: join(SERVER_DIR, 'schema/postgresql/v12'),
  config: join(ROOT, 'deploy/temporal/server.yaml'),
  dynamicConfig: join(ROOT, 'deploy/temporal/dynamicconfig.yaml'),
};

export const NAMESPACE = 'default';
const START_TIMEOUT_MS = 120_000;
// frontend gRPC, history, matching, worker; +10 membership; +20 frontend HTTP (deploy/temporal/server.yaml).
const TEMPORAL_PORT_OFFSETS = [0, 1, 2, 3, 10, 11, 12, 13, 20] as const;
/**
 * How long the server may take to stop before it is killed. Its own drain takes about 5 s under load (history
 * and matching each wait up to 2 s for requests in flight) to hand shards and task queues to other hosts;
 * this server is the only host, so the drain only lengthens the outage. A kill loses nothing: every write
 * of the server is fenced by its shard's range id, and a task it had handed out times out and runs again.
 */
const SERVER_STOP_GRACE_MS = 1_000;

export interface ClusterOptions {
  workers?: number;
  apis?: number;
  historyShards?: number;
  /** The settings every worker and API process gets (secrets, OPENCONTRACT_PARAMS…). */
  settings: NodeJS.ProcessEnv;
  /** Where each process keeps its data dir. */
  dir: string;
}

export interface Cluster {
  postgres: PostgresServer;
  temporalAddress: string;
  /** OPENCONTRACT_LEDGER of every process: the `opencontract` database. */
  ledgerUrl: string;
  temporal: ManagedProcess;
  workers: ManagedProcess[];
  apis: ManagedProcess[];
  /** Each API's base URL (fixed ports: a restarted API comes back on the same one). */
  apiUrls: string[];
  stop(): Promise<void>;
}

function sqlTool(postgres: PostgresServer, db: string, ...command: string[]): void {
  const args = ['--plugin', 'postgres12', '--ep', '127.0.0.1', '-p', String(postgres.port), '-u', 'postgres'];
  const run = spawnSync(clusterPaths.sqlTool, [...args, '--db', db, ...command], { encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(`temporal-sql-tool ${command.join(' ')} on ${db} failed:\n${run.stdout}${run.stderr}`);
  }
}

/** What temporal-sql-tool does on a fresh PostgreSQL: both databases, the base schema, every versioned step. */
function setUpTemporalSchemas(postgres: PostgresServer): void {
  for (const [db, dir] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ] as const) {
    sqlTool(postgres, db, 'create-database');
    sqlTool(postgres, db, 'setup-schema', '-v', '0.0');
    sqlTool(postgres, db, 'update-schema', '-d', join(clusterPaths.schema, dir, 'versioned'));
  }
}

const ALREADY_EXISTS = 6;

/** The frontend's port opens before its gRPC service answers: connect (which asks for the server's info) until it does. */
async function connectWhenServing(address: string): Promise<Connection> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      return await Connection.connect({ address, connectTimeout: '10s' });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Registers the namespace (a fresh cluster has none) and waits until the frontend serves it. */
async function prepareNamespace(address: string): Promise<void> {
  const connection = await connectWhenServing(address);
  try {
    try {
      await connection.workflowService.registerNamespace({
        namespace: NAMESPACE,
        workflowExecutionRetentionPeriod: msToTs('3 days'),
      });
    } catch (err) {
      if ((err as { code?: number }).code !== ALREADY_EXISTS) throw err;
    }
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await connection.workflowService.countWorkflowExecutions({ namespace: NAMESPACE, query: '' });
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    await registerSearchAttributes(connection, NAMESPACE);
  } finally {
    await connection.close();
  }
}

function temporalProcess(postgres: PostgresServer, base: number, shards: number): ManagedProcess {
  return new ManagedProcess({
    name: 'temporal-server',
    command: clusterPaths.server,
    args: [
      '--config-file',
      clusterPaths.config,
      '--allow-no-auth',
      'start',
      '--service=frontend,history,matching,worker',
    ],
    env: {
      ...process.env,
      TEMPORAL_DB_HOST: '127.0.0.1',
      TEMPORAL_DB_PORT: String(postgres.port),
      TEMPORAL_DB_USER: 'postgres',
      TEMPORAL_HISTORY_SHARDS: String(shards),
      TEMPORAL_PORT_BASE: String(base),
      TEMPORAL_DYNAMIC_CONFIG: clusterPaths.dynamicConfig,
    },
    stopGraceMs: SERVER_STOP_GRACE_MS,
    ready: async () => void (await (await connectWhenServing(`127.0.0.1:${base}`)).close()),
  });
}

/** `service/start.ts <role>` under tsx, as a deployment runs it (README: process list). */
export function serviceProcess(name: string, role: 'worker' | 'api', env: NodeJS.ProcessEnv): ManagedProcess {
  return new ManagedProcess({
    name,
    command: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'service/start.ts'), role],
    env,
    cwd: ROOT,
    ready: async (p) => {
      await p.printed(/^Ready\./m, START_TIMEOUT_MS);
    },
  });
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const shards = options.historyShards ?? 8;
  const postgres = await startPostgres({ maxConnections: 300 });
  const started: ManagedProcess[] = [];
  const stop = async () => {
    // APIs first (no new work), then workers, then the server, then the database.
    for (const p of [...started].reverse()) await p.kill('SIGTERM');
    await postgres.stop();
  };
  try {
    setUpTemporalSchemas(postgres);
    const ledgerUrl = await postgres.createDatabase('opencontract');
    const base = await freePortRange(TEMPORAL_PORT_OFFSETS);
    const temporalAddress = `127.0.0.1:${base}`;
    const temporal = temporalProcess(postgres, base, shards);
    started.push(temporal);
    await temporal.start();
    await prepareNamespace(temporalAddress);

    const common: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.settings,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_NAMESPACE: NAMESPACE,
      OPENCONTRACT_LEDGER: ledgerUrl,
    };
    const workers = Array.from({ length: options.workers ?? 2 }, (_, i) => {
      const dataDir = join(options.dir, `worker-${i + 1}`);
      mkdirSync(dataDir, { recursive: true });
      return serviceProcess(`worker-${i + 1}`, 'worker', { ...common, OPENCONTRACT_DATA_DIR: dataDir });
    });
    const apiBase = await freePortRange(Array.from({ length: options.apis ?? 2 }, (_, i) => i));
    const apiUrls: string[] = [];
    const apis = Array.from({ length: options.apis ?? 2 }, (_, i) => {
      const dataDir = join(options.dir, `api-${i + 1}`);
      mkdirSync(dataDir, { recursive: true });
      apiUrls.push(`http://127.0.0.1:${apiBase + i}`);
      return serviceProcess(`api-${i + 1}`, 'api', {
        ...common,
        OPENCONTRACT_DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(apiBase + i),
      });
    });
    // The ledger's tables exist before processes race to create them; workers first so no API accepts a
    // contract nobody runs; APIs one by one (their tables).
    await (await openLedger({ kind: 'postgres', connectionString: ledgerUrl })).close();
    // Bundled here once, so the two workers load .build/ instead of each running webpack.
    await prebuiltWorkflowBundle();
    started.push(...workers);
    await Promise.all(workers.map((w) => w.start()));
    for (const api of apis) {
      started.push(api);
      await api.start();
    }
    return { postgres, temporalAddress, ledgerUrl, temporal, workers, apis, apiUrls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
