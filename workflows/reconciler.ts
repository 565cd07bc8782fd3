// The hold reconciler (docs/operations.md): one workflow per namespace, ID `hold-reconciler`, started
// by every worker process (a second start finds it running). Each pass releases the open holds of
// closed contracts to their owners (store/stranded-holds.ts); it continues as new before its
// history grows long.
import { continueAsNew, proxyActivities, sleep } from '@temporalio/workflow';
import type { OperatorActivities } from './activity-interfaces';

export const RECONCILER_WORKFLOW_ID = 'hold-reconciler';
export const RECONCILER_WORKFLOW_TYPE = 'holdReconcilerWorkflow';

export interface ReconcilerInput {
  /** Milliseconds between passes. */
  intervalMs: number;
}

const PASSES_PER_RUN = 100;

const { reconcileHolds } = proxyActivities<OperatorActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

export async function holdReconcilerWorkflow(input: ReconcilerInput): Promise<never> {
  for (let pass = 0; pass < PASSES_PER_RUN; pass++) {
    await reconcileHolds({ release: true });
    await sleep(input.intervalMs);
  }
  return continueAsNew<typeof holdReconcilerWorkflow>(input);
}
