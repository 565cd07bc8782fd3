// One workflow per webhook subscription (ID `webhook-<subscription id>`): drains its agent's feed in
// order, one entry at a time, each post an activity retried with backoff for 25 hours, so a crashed
// worker or API loses no delivery and entry n+1 never goes before entry n. When the feed has nothing
// new it waits for `feedAppended` (the projector signals it) or five minutes, whichever is first; it
// ends when the subscription is deleted and continues as new before its history grows long.
import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { WebhookActivities } from './activity-interfaces';

export const WEBHOOK_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';
export const feedAppendedSignal = defineSignal('feedAppended');

export function webhookWorkflowId(subscriptionId: string): string {
  return `webhook-${subscriptionId}`;
}

export interface WebhookDeliveryInput {
  subscriptionId: string;
  /** The last entry id delivered (or given up on). */
  after: number;
  /** Longest wait between two attempts of one post (default 10 minutes). */
  maxRetryIntervalMs?: number;
}

const BATCH = 50;
const IDLE_WAIT = '5 minutes';
const HISTORY_LIMIT = 5_000;

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<void> {
  const reads = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  });
  const posts = proxyActivities<WebhookActivities>({
    startToCloseTimeout: '30 seconds',
    // At least 24 hours of attempts (Temporal stops retrying at the schedule-to-close timeout).
    scheduleToCloseTimeout: '25 hours',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: input.maxRetryIntervalMs ?? 10 * 60_000,
    },
  });
  let poked = false;
  setHandler(feedAppendedSignal, () => {
    poked = true;
  });
  let cursor = input.after;
  for (;;) {
    poked = false;
    const batch = await reads.webhookBatch(input.subscriptionId, cursor, BATCH);
    if (!batch.live) return;
    for (const id of batch.ids) {
      try {
        if ((await posts.deliverWebhook(input.subscriptionId, id)) === 'gone') return;
      } catch (err) {
        if (!(err instanceof ActivityFailure)) throw err;
        await reads.abandonWebhook(input.subscriptionId, id);
      }
      cursor = id;
    }
    if (batch.ids.length === 0) await condition(() => poked, IDLE_WAIT);
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > HISTORY_LIMIT) {
      return continueAsNew<typeof webhookDeliveryWorkflow>({ ...input, after: cursor });
    }
  }
}
