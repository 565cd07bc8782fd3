// The contract worker: runs contractWorkflow and the ledger and scoring activities on one task queue.
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import type { Ledger } from '../activities/ledger';
import type { ContractRecordStore } from '../activities/records';
import { createActivities } from '../activities';

export const CONTRACT_WORKFLOWS_PATH = require.resolve('../workflows/contract');

/**
 * Contract workflows kept in memory between tasks (docs/performance.md, "Worker settings"): about
 * 1.4 MB of RSS each (bench/worker), so 500 cap the cache near 0.7 GB; the SDK's default grows with
 * the heap limit (2,428 on a 4 GB heap, about 3.4 GB). A contract outside the cache replays its
 * history at its next message or deadline, which a lean history keeps short.
 */
export const MAX_CACHED_CONTRACTS = 500;

export interface ContractWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  ledger: Ledger;
  records: ContractRecordStore;
  dataConverter?: DataConverter;
  /** A prebuilt bundle (bundleWorkflowCode) instead of bundling workflows/contract.ts at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

export function createContractWorker(options: ContractWorkerOptions): Promise<Worker> {
  const { connection, namespace, taskQueue, ledger, records, dataConverter, workflowBundle } = options;
  return Worker.create({
    connection,
    taskQueue,
    ...(namespace === undefined ? {} : { namespace }),
    ...(dataConverter === undefined ? {} : { dataConverter }),
    ...(workflowBundle === undefined ? { workflowsPath: CONTRACT_WORKFLOWS_PATH } : { workflowBundle }),
    activities: createActivities({ ledger, records }),
    maxCachedWorkflows: MAX_CACHED_CONTRACTS,
  });
}
