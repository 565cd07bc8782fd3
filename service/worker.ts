// The contract worker: runs contractWorkflow and the ledger and scoring activities on one task queue.
import type { DataConverter } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import type { Ledger } from '../activities/ledger';
import type { ContractRecordStore } from '../activities/records';
import { createActivities, type Activities } from '../activities';

export const CONTRACT_WORKFLOWS_PATH = require.resolve('../workflows/contract');

export interface ContractWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  ledger: Ledger;
  records: ContractRecordStore;
  dataConverter?: DataConverter;
  /** A prebuilt bundle (bundleWorkflowCode) instead of bundling workflows/contract.ts at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Tests only: wraps the activities, e.g. to inject a failure (test/hostile). */
  wrapActivities?: (activities: Activities) => Activities;
}

export function createContractWorker(options: ContractWorkerOptions): Promise<Worker> {
  const { connection, namespace, taskQueue, ledger, records, dataConverter, workflowBundle } = options;
  const activities = createActivities({ ledger, records });
  return Worker.create({
    connection,
    taskQueue,
    ...(namespace === undefined ? {} : { namespace }),
    ...(dataConverter === undefined ? {} : { dataConverter }),
    ...(workflowBundle === undefined ? { workflowsPath: CONTRACT_WORKFLOWS_PATH } : { workflowBundle }),
    activities: options.wrapActivities?.(activities) ?? activities,
  });
}
