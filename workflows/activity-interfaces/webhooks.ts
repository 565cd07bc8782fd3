// Webhook delivery's activities as its workflow calls them (activities/webhook-activities.ts).

export interface WebhookActivities {
  /** Entry ids after `after` for the subscription's agent; `live: false` once the subscription is deleted. */
  webhookBatch(
    subscriptionId: string,
    after: number,
    limit: number,
  ): Promise<{ live: boolean; ids: number[] }>;
  /** Posts entry `entryId`; `gone` when the subscription was deleted meanwhile. */
  deliverWebhook(subscriptionId: string, entryId: number): Promise<'delivered' | 'gone'>;
  /** Gives up on entry `entryId` after the whole retry budget (counted on the subscription). */
  abandonWebhook(subscriptionId: string, entryId: number): Promise<void>;
}
