// The contract worker: runs contractWorkflow and the ledger and scoring activities on one task queue.
import type { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import type { Ledger } from '../store/ledger';
import type { ContractRecordStore } from '../store/records';
import { createActivities, type Activities, type ActivityDeps } from '../activities';
import { TASK_QUEUE } from '../temporal.config';
import {
  RECONCILER_WORKFLOW_ID,
  RECONCILER_WORKFLOW_TYPE,
  type ReconcilerInput,
} from '../workflows/reconciler';

export const CONTRACT_WORKFLOWS_PATH = require.resolve('../workflows/contract');

/**
 * Contract workflows kept in memory between tasks (docs/performance.md, "Worker settings"): about
 * 1.4 MB of RSS each (bench/worker), so 500 cap the cache near 0.7 GB; the SDK's default grows with
 * the heap limit (2,428 on a 4 GB heap, about 3.4 GB). A contract outside the cache replays its
 * history at its next message or deadline, which the workflow keeps short
 * (docs/performance.md, "History events per path").
 */
export const MAX_CACHED_CONTRACTS = 500;

/** The cache and the task slots; bench/fleet/sweep.ts compares settings (docs/performance.md). */
export type ContractWorkerTuning = Pick<
  WorkerOptions,
  | 'maxCachedWorkflows'
  | 'maxConcurrentWorkflowTaskExecutions'
  | 'maxConcurrentActivityTaskExecutions'
  | 'maxConcurrentLocalActivityExecutions'
  | 'workflowThreadPoolSize'
>;

/**
 * 64 workflow tasks, 8 activities and 8 local activities at once, not the SDK's 40 / 100 / 100
 * (docs/performance.md, "Worker settings"). A workflow task must finish within 10 s of the worker taking
 * it, and a worker that takes 40 on a saturated 2-core machine, each with its own local activities
 * (100 at once), lets the last ones time out, which fails the Update riding on them. Eight local
 * activities and eight activities bound that work; the ledger gains nothing from more at once.
 * The workflow-task slots are more than the contracts a worker runs at once because a task that waits
 * on a local activity holds its slot: with every slot held the worker stops polling, and tasks for one
 * contract then reach it out of order. The SDK's core as npm ships it (1.24.0) loses such a task when the
 * second is a query (it times out after 10 s and its Update waits that long or fails; the backport of
 * `npm run core:install` fixes it, README "The SDK's core: a backport of two fixes"), and the slots stay at 64, which cost nothing
 * in the sweep (docs/performance.md) and keep a contract's task from waiting on another's ledger posting.
 */
export const CONTRACT_WORKER_TUNING: ContractWorkerTuning = {
  maxCachedWorkflows: MAX_CACHED_CONTRACTS,
  maxConcurrentWorkflowTaskExecutions: 64,
  maxConcurrentActivityTaskExecutions: 8,
  maxConcurrentLocalActivityExecutions: 8,
};

/**
 * A stopping worker (SIGTERM) polls no more tasks and lets the ones it runs finish: ledger activities take
 * milliseconds, so 10 s is ample; past it they are cancelled (and retried elsewhere), and at 20 s the
 * worker gives up waiting so a stop is always bounded. A task it leaves is retried by another worker.
 */
export const WORKER_SHUTDOWN = { shutdownGraceTime: '10s', shutdownForceTime: '20s' } as const;

/**
 * How long a task on this worker's sticky queue (a contract it has cached) waits for it before the server
 * hands it to any worker: 5 s, the Go and Java SDKs' default, where the TypeScript SDK's is 10 s. Two cases
 * wait this long: the tasks of a killed worker's contracts (it never says it is gone, and the server keeps
 * routing them to its sticky queue until it has seen no poll there for 10 s), and a task put on a stopping
 * worker's sticky queue in the instant before it stops polling (its shutdown tells the server, which drops
 * the queue and the task with it). Either then runs on the other worker, which replays the contract's history.
 * Not shorter: the server also gives a query this long to be answered by the sticky worker before it takes
 * the contract off it and asks another worker, which replays it. At 2 s a saturated run without faults had
 * about 100 queries answered too late and 10 tasks thrown away; at 5 s none (docs/scale.md).
 */
export const STICKY_QUEUE_TIMEOUT = '5s';

export interface ContractWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  ledger: Ledger;
  records: ContractRecordStore;
  outcomes: ActivityDeps['outcomes'];
  /** The agent feed, for webhook delivery (activities/index.ts). */
  feed?: ActivityDeps['feed'];
  dataConverter?: DataConverter;
  /** A prebuilt bundle (bundleWorkflowCode) instead of bundling workflows/contract.ts at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Tests only: wraps the activities, e.g. to inject a failure (test/hostile). */
  wrapActivities?: (activities: Activities) => Activities;
  /** Benchmarks only: other settings than CONTRACT_WORKER_TUNING. */
  tuning?: ContractWorkerTuning;
}

export function createContractWorker(options: ContractWorkerOptions): Promise<Worker> {
  const { connection, namespace, taskQueue, ledger, records, outcomes, dataConverter, workflowBundle } =
    options;
  const activities = createActivities({
    ledger,
    records,
    outcomes,
    ...(options.feed === undefined ? {} : { feed: options.feed }),
  });
  return Worker.create({
    connection,
    taskQueue,
    ...(namespace === undefined ? {} : { namespace }),
    ...(dataConverter === undefined ? {} : { dataConverter }),
    ...(workflowBundle === undefined ? { workflowsPath: CONTRACT_WORKFLOWS_PATH } : { workflowBundle }),
    activities: options.wrapActivities?.(activities) ?? activities,
    ...WORKER_SHUTDOWN,
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_TIMEOUT,
    ...(options.tuning ?? CONTRACT_WORKER_TUNING),
  });
}

/** Every pass of the hold reconciler (docs/operations.md). */
export const RECONCILER_INTERVAL_MS = 10 * 60_000;

/** Starts the hold reconciler unless it runs already (every worker process asks; one runs). */
export async function startReconciler(client: Client, taskQueue = TASK_QUEUE): Promise<void> {
  const input: ReconcilerInput = { intervalMs: RECONCILER_INTERVAL_MS };
  await client.workflow.start(RECONCILER_WORKFLOW_TYPE, {
    workflowId: RECONCILER_WORKFLOW_ID,
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}
