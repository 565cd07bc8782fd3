// The Temporal side of webhooks: each subscription's delivery workflow is started when the
// subscription is made, and woken (started again if it is not running) when its agent's feed grows.
import type { Client } from '@temporalio/client';
import type { FeedStore } from '../store/agent-feed';
import type { WebhookSubscription } from '../store/agent-feed/types';
import {
  feedAppendedSignal,
  WEBHOOK_WORKFLOW_TYPE,
  webhookWorkflowId,
  type WebhookDeliveryInput,
} from '../workflows/webhook-delivery';

export interface WebhookWorkflows {
  start(sub: WebhookSubscription): Promise<void>;
  /** Wakes the delivery of every live subscription of these agents. */
  notify(agents: readonly string[]): Promise<void>;
}

export function webhookWorkflows(deps: {
  client: Client;
  taskQueue: string;
  store: FeedStore;
  maxRetryIntervalMs?: number;
}): WebhookWorkflows {
  const { client, taskQueue, store } = deps;
  const input = (sub: WebhookSubscription): WebhookDeliveryInput => ({
    subscriptionId: sub.id,
    after: sub.deliveredThrough,
    ...(deps.maxRetryIntervalMs === undefined ? {} : { maxRetryIntervalMs: deps.maxRetryIntervalMs }),
  });
  return {
    async start(sub) {
      await client.workflow.start(WEBHOOK_WORKFLOW_TYPE, {
        workflowId: webhookWorkflowId(sub.id),
        taskQueue,
        args: [input(sub)],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    },
    async notify(agents) {
      for (const sub of await store.subscriptionsOf(agents)) {
        await client.workflow.signalWithStart(WEBHOOK_WORKFLOW_TYPE, {
          workflowId: webhookWorkflowId(sub.id),
          taskQueue,
          args: [input(sub)],
          signal: feedAppendedSignal,
        });
      }
    },
  };
}
