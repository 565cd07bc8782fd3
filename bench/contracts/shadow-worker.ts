// The shadow workflow's worker (bench/contracts, bench/fleet): the shadow bundled from its source,
// the service's codec, no-op activities.
import type { NativeConnection } from '@temporalio/worker';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { contractDataConverter } from '../../service/temporal-client';
import type { ContractWorkerTuning } from '../../service/worker';
import { shadowActivities } from './shadow-activities';

export const SHADOW_QUEUE = 'bench-shadow';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

export async function createShadowWorker(input: {
  connection: NativeConnection;
  namespace: string;
  codecKey: Uint8Array;
  /** The same cache and slot settings as the contract worker it is compared with. */
  tuning?: ContractWorkerTuning;
}): Promise<Worker> {
  return Worker.create({
    connection: input.connection,
    namespace: input.namespace,
    taskQueue: SHADOW_QUEUE,
    dataConverter: contractDataConverter(input.codecKey),
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: require.resolve('./shadow-workflow'),
      logger: quiet,
    }),
    activities: shadowActivities,
    ...input.tuning,
  });
}
