// The whole stack for API and end-to-end tests: a Temporal dev server (real visibility), the contract
// worker with the encrypting codec, a real SQLite ledger, vault, nonce and idempotency files in a
// temp dir, and the API — in process for `app.request()`, or over HTTP on 127.0.0.1 via
// service/api-server.ts (what the start script runs).
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { agentOwner, openLedger, type Balances, type Ledger } from '../../store/ledger';
import { openRecords, type ContractRecordStore } from '../../store/records';
import { openFeed } from '../../store/agent-feed';
import { dataFile } from '../../store/data-files';
import { openOutcomeLog, type OutcomeLog } from '../../store/outcomes';
import { startAgentFeed, type AgentFeedService } from '../../service/agent-feed';
import { createApp, type App, type AppDeps } from '../../api/app';
import { createOperatorClient } from '../../sdk/typescript';
import type { SqliteKeyVault } from '../../store/vault/sqlite';
import { startApiServer, type ApiServer } from '../../service/api-server';
import { closeApiStores, openApiStores, type SqliteApiStores } from '../../store';
import { loadSettings, type Settings } from '../../service/settings';
import { createTemporalClient, workerDataConverter } from '../../service/temporal-client';
import { createContractWorker } from '../../service/worker';
import { prebuiltWorkflowBundle } from '../../service/workflow-bundle';
import {
  CURSOR_KEY,
  OPERATOR_TOKEN,
  PAYLOAD_CODEC_KEY,
  VAULT_MASTER_KEY,
  type ServiceHarness,
} from './harness';
import { createDevServerEnv } from './temporal';

export { OPERATOR_TOKEN, VAULT_MASTER_KEY, type ServiceHarness } from './harness';
export const TASK_QUEUE = 'opencontract-test';

/** A temp dir the harness removes in close() (node:test's after() inside a hook fires too early). */
export function makeDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `oc-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let bundle: ReturnType<typeof prebuiltWorkflowBundle> | undefined;
/**
 * The contract workflows' bundle, built once for every test process of a run (the worker's own prebuilt bundle,
 * on disk by a hash of the sources: webpack costs ~5 s of CPU, once instead of once per test file).
 */
export function contractBundle(): ReturnType<typeof prebuiltWorkflowBundle> {
  bundle ??= prebuiltWorkflowBundle();
  return bundle;
}

export interface RunningWorker {
  stop(): Promise<void>;
}

export async function runContractWorker(
  env: TestWorkflowEnvironment,
  ledger: Ledger,
  settings: Settings,
  taskQueue = TASK_QUEUE,
  /** Wraps the worker's outcome log (a benchmark times or skips its appends). */
  wrapOutcomes: (log: OutcomeLog) => OutcomeLog = (log) => log,
): Promise<RunningWorker> {
  const records = await openRecords(settings.ledger);
  const opened = await openOutcomeLog(settings.ledger);
  const outcomes = wrapOutcomes(opened);
  const feed = await openFeed(settings);
  const worker = await createContractWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    ledger,
    records,
    outcomes,
    feed: { store: feed, allowPrivate: settings.webhookAllowPrivate, hostRate: settings.webhookHostRate },
    dataConverter: workerDataConverter(settings.payloadCodecKey),
    workflowBundle: await contractBundle(),
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await records.close();
      await opened.close();
      await feed.close();
    },
  };
}

/** Settings as the start script would read them, pointed at the test's dev server and temp dir. */
export function testSettingsEnv(
  env: TestWorkflowEnvironment,
  dir: string,
  params?: object,
): NodeJS.ProcessEnv {
  return {
    PORT: '0',
    OPENCONTRACT_DATA_DIR: dir,
    OPENCONTRACT_LEDGER: `sqlite:${dataFile(dir, 'ledger')}`,
    OPERATOR_TOKEN,
    VAULT_MASTER_KEY,
    PAYLOAD_CODEC_KEY,
    CURSOR_KEY,
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_NAMESPACE: env.namespace ?? 'default',
    // The tests' webhook receivers listen on loopback.
    OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE: '1',
    // A benchmark whose receivers all share one host raises the per-host delivery rate.
    ...(process.env.OPENCONTRACT_WEBHOOK_HOST_RATE
      ? { OPENCONTRACT_WEBHOOK_HOST_RATE: process.env.OPENCONTRACT_WEBHOOK_HOST_RATE }
      : {}),
    ...(params ? { OPENCONTRACT_PARAMS: JSON.stringify(params) } : {}),
  };
}

async function balancesOf(ledger: Ledger, address: string): Promise<Balances> {
  return ledger.balances(agentOwner(address));
}

/** An API app on the test's Temporal server and ledger, with the given stores and task queue; `overrides` replaces any part. */
export function appOn(
  env: TestWorkflowEnvironment,
  settings: Settings,
  parts: {
    ledger: Ledger;
    records: ContractRecordStore;
    stores: SqliteApiStores;
    taskQueue: string;
    outcomes?: OutcomeLog;
  },
  overrides: Partial<AppDeps> = {},
): App {
  const temporal = createTemporalClient({
    connection: env.connection,
    namespace: env.namespace ?? 'default',
    codecKey: settings.payloadCodecKey,
  });
  return createApp({
    temporal,
    taskQueue: parts.taskQueue,
    ledger: parts.ledger,
    records: parts.records,
    ...(parts.outcomes === undefined
      ? {}
      : { outcomes: { log: parts.outcomes, trustAnchors: settings.trustAnchors } }),
    ...parts.stores,
    params: settings.params,
    operatorToken: settings.operatorToken,
    cursorKey: settings.cursorKey,
    // Floods through these apps test the workflow's own caps; test/hostile/rate-limits.test.ts tests
    // the API's limits on apps of its own.
    limits: { settings: UNLIMITED_FOR_FLOODS },
    ...overrides,
  });
}

/** For `app.request()` tests: the app in process with every real part behind it. */
export interface AppHarness {
  env: TestWorkflowEnvironment;
  app: App;
  ledger: Ledger;
  records: ContractRecordStore;
  vault: SqliteKeyVault;
  settings: Settings;
  /** The agent feed beside the app, its projector running (service/agent-feed.ts). */
  feed: AgentFeedService;
  fund(address: string, amount: bigint): Promise<void>;
  balances(address: string): Promise<Balances>;
  close(): Promise<void>;
}

let fundCounter = 0;
const UNLIMITED = { burst: 1e9, perSecond: 1e9 };
const UNLIMITED_FOR_FLOODS = { agent: UNLIMITED, address: UNLIMITED, host: UNLIMITED, unverified: UNLIMITED };

export async function startAppHarness(options: { params?: object } = {}): Promise<AppHarness> {
  const env = await createDevServerEnv();
  const { dir, remove } = makeDir('api');
  const settings = loadSettings(testSettingsEnv(env, dir, options.params));
  const ledger = await openLedger(settings.ledger);
  const worker = await runContractWorker(env, ledger, settings);
  const stores = openApiStores(dir, settings.vaultMasterKey);
  const records = await openRecords(settings.ledger);
  const outcomes = await openOutcomeLog(settings.ledger);
  const feedStore = await openFeed(settings);
  const feed = startAgentFeed({
    client: createTemporalClient({
      connection: env.connection,
      namespace: env.namespace ?? 'default',
      codecKey: settings.payloadCodecKey,
    }),
    taskQueue: TASK_QUEUE,
    records,
    store: feedStore,
    webhookAllowPrivate: false,
    projector: { intervalMs: 200 },
  });
  const app = appOn(
    env,
    settings,
    { ledger, records, outcomes, stores, taskQueue: TASK_QUEUE },
    { feed: feed.deps },
  );
  return {
    env,
    app,
    ledger,
    records,
    vault: stores.vault,
    settings,
    feed,
    async fund(address, amount) {
      fundCounter += 1;
      await ledger.deposit({
        id: `test-fund:${fundCounter}`,
        asset: 'USDC',
        to: agentOwner(address),
        amount,
      });
    },
    balances: (address) => balancesOf(ledger, address),
    async close() {
      await feed.stop();
      await worker.stop();
      await env.teardown();
      await ledger.close();
      await records.close();
      await outcomes.close();
      await feedStore.close();
      closeApiStores(stores);
      remove();
    },
  };
}

/** Registers an app harness for this test file (started before its tests, closed after) and returns it. */
export function useAppHarness(options: { params?: object } = {}): () => AppHarness {
  return useStarted('useAppHarness', () => startAppHarness(options));
}

/** Where the e2e suites run: the dev server in this process (default) or the cluster profile. */
export const E2E_TARGET = process.env.OPENCONTRACT_E2E_TARGET === 'cluster' ? 'cluster' : 'dev-server';

export async function startServiceHarness(options: { params?: object } = {}): Promise<ServiceHarness> {
  if (E2E_TARGET === 'cluster') return (await import('./cluster')).startClusterHarness(options);
  return startDevServiceHarness(options);
}

/** The dev-server target: one API and one worker in this process, the ledger in SQLite. */
export async function startDevServiceHarness(
  options: { params?: object; wrapOutcomes?: (log: OutcomeLog) => OutcomeLog } = {},
): Promise<ServiceHarness> {
  const env = await createDevServerEnv();
  const { dir, remove } = makeDir('e2e');
  const settingsEnv = testSettingsEnv(env, dir, options.params);
  const settings = loadSettings(settingsEnv);
  // The test's own ledger connection (for balances), like an auditor beside the service.
  const observer = await openLedger(settings.ledger);
  let api: ApiServer | undefined;
  let worker: RunningWorker | undefined;
  let workerLedger: Ledger | undefined;

  const harness: ServiceHarness = {
    env,
    settings,
    url: () => {
      if (!api) throw new Error('the API is stopped');
      return api.url;
    },
    operator: () => createOperatorClient({ baseUrl: harness.url(), token: settings.operatorToken }),
    balances: (address) => balancesOf(observer, address),
    ledger: () => observer,
    async startApiAndWorker() {
      workerLedger = await openLedger(settings.ledger);
      worker = await runContractWorker(env, workerLedger, settings, TASK_QUEUE, options.wrapOutcomes);
      api = await startApiServer(settings, { env: settingsEnv, taskQueue: TASK_QUEUE });
    },
    async stopApiAndWorker() {
      await api?.close();
      await worker?.stop();
      await workerLedger?.close();
      api = worker = workerLedger = undefined;
    },
    async restart() {
      await harness.stopApiAndWorker();
      await harness.startApiAndWorker();
    },
    async close() {
      await harness.stopApiAndWorker();
      await env.teardown();
      await observer.close();
      remove();
    },
  };
  await harness.startApiAndWorker();
  return harness;
}

/**
 * Registers a service harness for this test file (started before its tests, closed after) and returns it.
 * Files run in one process (test/cluster/e2e.cluster.ts imports the e2e suites) share one harness per
 * options: the cluster starts once for all of them.
 */
export function useServiceHarness(options: { params?: object } = {}): () => ServiceHarness {
  return useStarted(
    'useServiceHarness',
    () => startServiceHarness(options),
    `service:${JSON.stringify(options)}`,
  );
}

const shared = new Map<string | symbol, { started: Promise<{ close(): Promise<void> }>; users: number }>();

/**
 * Starts a harness in `before`, closes it in `after`; the accessor returns it once started. Callers in one
 * process with the same `key` get the same harness, closed after the last of them.
 */
function useStarted<T extends { close(): Promise<void> }>(
  name: string,
  start: () => Promise<T>,
  key: string | symbol = Symbol(name),
): () => T {
  let harness: T | undefined;
  before(async () => {
    const entry = shared.get(key) ?? { started: start(), users: 0 };
    shared.set(key, entry);
    entry.users += 1;
    harness = (await entry.started) as T;
  });
  after(async () => {
    const entry = shared.get(key);
    if (!entry || --entry.users > 0) return;
    shared.delete(key);
    if (harness) await harness.close();
  });
  return () => {
    if (!harness) throw new Error(`the harness has not started: call ${name}() at the top level of the file`);
    return harness;
  };
}
