// The activities of webhook delivery (workflows/webhook-delivery.ts): read what a subscription has not
// received yet, post one entry, and give up on one after the whole retry budget. A failed post is
// written on the subscription (its agent reads it) and thrown, so Temporal retries it with backoff.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { FeedStore } from '../store/agent-feed';
import type { WebhookActivities } from '../workflows/activity-interfaces';
import type { FeedEntry } from '../store/agent-feed/types';
import type { BucketRule } from '../store/rate-limit';
import { postWebhook } from '../webhooks/post';
import { webhookErrorCode } from '../webhooks/errors';
import type { Resolve } from '../webhooks/target';

/** Posts to one target host, across every subscription and worker (OPENCONTRACT_WEBHOOK_HOST_RATE). */
export const DEFAULT_WEBHOOK_HOST_RATE: BucketRule = { burst: 60, perSecond: 10 };

/**
 * The rate's key: the address the post connects to, whatever name led there (many names can point at
 * one host), an IPv6 host by its /64 (one host may hold a whole prefix).
 */
export function rateKey(address: string): string {
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const h = head === '' ? [] : head.split(':');
  const t = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

class HostBusy extends Error {
  constructor(readonly retryAfterMs: number) {
    super('rate_limited');
  }
}

/** The URL as the claim compares it (scheme and host lowercased, default port dropped); null if unparsable. */
function normalizedUrl(raw: string): string | null {
  try {
    return new URL(raw).href;
  } catch {
    return null;
  }
}

export interface WebhookActivityDeps {
  feed: FeedStore;
  allowPrivate: boolean;
  /** The per-target-host delivery rate (default DEFAULT_WEBHOOK_HOST_RATE). */
  hostRate?: BucketRule;
  /** Tests only: another resolver than the system's. */
  resolve?: Resolve;
  now?: () => number;
  /** Tells Temporal the post is still alive; the running activity's heartbeat by default. */
  heartbeat?: () => void;
}

/** How often a post in flight heartbeats (the workflow's heartbeat timeout is a few of these). */
export const WEBHOOK_HEARTBEAT_MS = 1_000;

/**
 * Heartbeats while `work` runs, so a worker that dies mid-post (its process killed) is noticed at the
 * heartbeat timeout and the post retried on another worker, instead of at the start-to-close timeout.
 */
async function heartbeating<T>(heartbeat: () => void, work: () => Promise<T>): Promise<T> {
  heartbeat();
  const timer = setInterval(heartbeat, WEBHOOK_HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** The body a receiver gets: Standard Webhooks' `{ type, timestamp, data }`, data the feed entry. */
export function webhookPayload(entry: FeedEntry): string {
  return JSON.stringify({ type: entry.type, timestamp: entry.at, data: entry });
}

export function createWebhookActivities({
  feed,
  allowPrivate,
  hostRate = DEFAULT_WEBHOOK_HOST_RATE,
  resolve,
  now = Date.now,
  heartbeat = () => Context.current().heartbeat(),
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
      const fail = async (code: string, type: string) => {
        await feed.failed(subscriptionId, code, new Date(now()).toISOString());
        return ApplicationFailure.retryable(code, type);
      };
      const url = normalizedUrl(sub.url);
      if (url === null) throw await fail('invalid_url', 'WebhookTargetRefused');
      // One post per event per URL, however many of the agent's subscriptions name it. The key is the
      // entry (the event as this agent sees it): another agent's copy is signed with that agent's own
      // secret, so no agent can claim, and so suppress, a delivery meant for another's receiver.
      if (!(await feed.claimDelivery(entry.id, url, subscriptionId, now()))) {
        await feed.delivered(subscriptionId, entryId, new Date(now()).toISOString());
        return 'delivered';
      }
      try {
        await heartbeating(heartbeat, () =>
          postWebhook(
            sub.url,
            sub.secret,
            { id: entry.id, timestamp: new Date(now()), payload: webhookPayload(entry) },
            {
              allowPrivate,
              ...(resolve ? { resolve } : {}),
              beforeConnect: async (address) => {
                const room = await feed.takeHostToken(rateKey(address), hostRate, now());
                if (!room.ok) throw new HostBusy(room.retryAfterMs);
              },
            },
          ),
        );
      } catch (err) {
        // Not a failure of the receiver: tried again once the host's bucket has a token.
        if (err instanceof HostBusy) {
          throw ApplicationFailure.create({
            message: 'rate_limited',
            type: 'WebhookHostBusy',
            nextRetryDelay: err.retryAfterMs,
          });
        }
        const code = webhookErrorCode(err);
        const refused = code === 'private_target' || code === 'dns' || code === 'invalid_url';
        throw await fail(code, refused ? 'WebhookTargetRefused' : 'WebhookDeliveryFailed');
      }
      await feed.delivered(subscriptionId, entryId, new Date(now()).toISOString());
      return 'delivered';
    },

    async abandonWebhook(subscriptionId: string, entryId: number): Promise<void> {
      await feed.abandoned(subscriptionId, entryId);
    },
  };
}
