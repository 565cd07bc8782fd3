// The activities of webhook delivery (workflows/webhook-delivery.ts): read what a subscription has not
// received yet, post one entry, and give up on one after the whole retry budget. A failed post is
// written on the subscription (its agent reads it) and thrown, so Temporal retries it with backoff.
import { ApplicationFailure } from '@temporalio/common';
import type { FeedStore } from '../../store/agent-feed';
import type { WebhookActivities } from '../../workflows/activity-interfaces';
import type { FeedEntry } from '../../store/agent-feed/types';
import { postWebhook } from './webhook-post';
import type { Resolve } from './webhook-target';
import { WebhookTargetRefused } from './webhook-target';

export interface WebhookActivityDeps {
  feed: FeedStore;
  allowPrivate: boolean;
  /** Tests only: another resolver than the system's. */
  resolve?: Resolve;
  now?: () => number;
}

/** The body a receiver gets: Standard Webhooks' `{ type, timestamp, data }`, data the feed entry. */
export function webhookPayload(entry: FeedEntry): string {
  return JSON.stringify({ type: entry.type, timestamp: entry.at, data: entry });
}

export function createWebhookActivities({
  feed,
  allowPrivate,
  resolve,
  now = Date.now,
}: WebhookActivityDeps): WebhookActivities {
  return {
    /** Entry ids after `after` for the subscription's agent; `live: false` once the subscription is deleted. */
    async webhookBatch(
      subscriptionId: string,
      after: number,
      limit: number,
    ): Promise<{ live: boolean; ids: number[] }> {
      const sub = await feed.subscription(subscriptionId);
      if (sub === undefined) return { live: false, ids: [] };
      const entries = await feed.read(sub.agent, Math.max(after, sub.deliveredThrough), limit);
      return { live: true, ids: entries.map((e) => Number(e.id)) };
    },

    /** Posts entry `entryId`; `gone` when the subscription was deleted meanwhile. */
    async deliverWebhook(subscriptionId: string, entryId: number): Promise<'delivered' | 'gone'> {
      const sub = await feed.subscription(subscriptionId);
      if (sub === undefined) return 'gone';
      const [entry] = await feed.read(sub.agent, entryId - 1, 1);
      if (entry === undefined || Number(entry.id) !== entryId) return 'delivered'; // nothing to send under this id
      try {
        await postWebhook(
          sub.url,
          sub.secret,
          { id: entry.id, timestamp: new Date(now()), payload: webhookPayload(entry) },
          { allowPrivate, ...(resolve ? { resolve } : {}) },
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await feed.failed(subscriptionId, message, new Date(now()).toISOString());
        if (err instanceof WebhookTargetRefused)
          throw ApplicationFailure.retryable(message, 'WebhookTargetRefused');
        throw ApplicationFailure.retryable(message, 'WebhookDeliveryFailed');
      }
      await feed.delivered(subscriptionId, entryId, new Date(now()).toISOString());
      return 'delivered';
    },

    async abandonWebhook(subscriptionId: string, entryId: number): Promise<void> {
      await feed.abandoned(subscriptionId, entryId);
    },
  };
}
