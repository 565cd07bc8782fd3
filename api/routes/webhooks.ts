// An agent's webhook subscriptions (docs/agents.md): POST /agents/:address/webhooks registers a URL
// and answers its signing secret once; GET lists them with their delivery state (failures, last
// error, how far delivered); DELETE ends one. The target is checked before anything is stored.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { randomBytes } from 'node:crypto';
import type { WebhookSubscription } from '../../store/agent-feed/types';
import { checkWebhookTarget, WebhookTargetRefused } from '../../webhooks/target';
import type { SignedEnv } from '../auth';
import type { AgentFeedContext } from '../deps';
import { badRequest, conflict, notFound, validationHook } from '../errors';
import type { AuthMiddleware } from '../middleware';
import { addressParams, errorResponses, json } from '../openapi/schemas';
import { ownAddress } from './own-address';

/** Subscriptions an agent may hold at once. */
export const MAX_WEBHOOKS_PER_AGENT = 10;

const webhookBody = z
  .object({ url: z.string().min(1).max(2048) })
  .strict()
  .openapi('WebhookRequest');

export const webhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    createdAt: z.string(),
    deliveredThrough: z.string().openapi({ description: 'the last feed entry id delivered or given up on' }),
    failures: z.number().int().openapi({ description: 'failed attempts since the last success' }),
    lastError: z.string().nullable(),
    lastFailureAt: z.string().nullable(),
    lastSuccessAt: z.string().nullable(),
    abandoned: z.number().int().openapi({ description: 'entries given up on after 25 hours of attempts' }),
  })
  .openapi('Webhook');

export const createdWebhookSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    createdAt: z.string(),
    secret: z.string().openapi({ description: 'the Standard Webhooks signing secret (whsec_…), shown once' }),
  })
  .openapi('WebhookCreated');

const webhookParams = addressParams.extend({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
});

function toWire(sub: WebhookSubscription) {
  const { secret: _secret, agent: _agent, deliveredThrough, ...rest } = sub;
  return { ...rest, deliveredThrough: String(deliveredThrough) };
}

export function webhooksApp(feed: AgentFeedContext, auth: AuthMiddleware, now: () => number) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'post',
      path: '/{address}/webhooks',
      summary: 'Register a URL to receive the caller’s feed (Standard Webhooks, at least once, in order)',
      middleware: [...auth.signedMutation],
      request: {
        params: addressParams,
        body: { required: true, content: { 'application/json': { schema: webhookBody } } },
      },
      responses: {
        201: json(createdWebhookSchema, 'the subscription and its secret'),
        ...errorResponses(400, 401, 403, 409, 413, 422),
      },
    }),
    async (c) => {
      const agent = ownAddress(c.req.valid('param').address, c.var.caller, 'webhooks');
      let url: string;
      try {
        url = (await checkWebhookTarget(c.req.valid('json').url, feed.webhookAllowPrivate, feed.resolve))
          .href;
      } catch (err) {
        if (!(err instanceof WebhookTargetRefused)) throw err;
        throw badRequest(
          err.message,
          { fields: [{ field: 'url', message: err.message }] },
          'webhook_target_refused',
        );
      }
      // A URL is one agent's: another agent's subscription to it could not be signed with this one's
      // secret, so one delivery per event per URL needs one owner (docs/agents.md "Webhooks").
      if ((await feed.store.agentsAt(url)).some((other) => other !== agent))
        throw conflict(
          'another agent has a webhook at this url; use a url of your own (another path or query)',
          { fields: [{ field: 'url', message: 'taken by another agent' }] },
          'webhook_url_taken',
        );
      if ((await feed.store.subscriptions(agent)).length >= MAX_WEBHOOKS_PER_AGENT)
        throw conflict(
          `an agent holds at most ${MAX_WEBHOOKS_PER_AGENT} webhooks`,
          undefined,
          'too_many_webhooks',
        );
      const sub = {
        id: `wh_${randomBytes(12).toString('hex')}`,
        agent,
        url,
        secret: `whsec_${randomBytes(24).toString('base64')}`,
        createdAt: new Date(now()).toISOString(),
      };
      await feed.store.addSubscription(sub);
      const stored = await feed.store.subscription(sub.id);
      await feed.webhooks.start(stored!);
      return c.json({ id: sub.id, url, createdAt: sub.createdAt, secret: sub.secret }, 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/{address}/webhooks',
      summary: 'The caller’s webhooks and how their deliveries go',
      middleware: [auth.signed],
      request: { params: addressParams },
      responses: {
        200: json(z.object({ webhooks: z.array(webhookSchema) }).openapi('Webhooks'), 'subscriptions'),
        ...errorResponses(400, 401, 403),
      },
    }),
    async (c) => {
      const agent = ownAddress(c.req.valid('param').address, c.var.caller, 'webhooks');
      return c.json({ webhooks: (await feed.store.subscriptions(agent)).map(toWire) }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/{address}/webhooks/{id}',
      summary: 'End a webhook subscription (its delivery stops)',
      middleware: [...auth.signedMutation],
      request: { params: webhookParams },
      responses: {
        200: json(z.object({ id: z.string(), deleted: z.literal(true) }), 'deleted'),
        ...errorResponses(400, 401, 403, 404, 422),
      },
    }),
    async (c) => {
      const { address, id } = c.req.valid('param');
      const agent = ownAddress(address, c.var.caller, 'webhooks');
      if (!(await feed.store.deleteSubscription(agent, id)))
        throw notFound(`no webhook ${id} of this agent`, undefined, 'webhook_not_found');
      return c.json({ id, deleted: true as const }, 200);
    },
  );
  return app;
}
