// An agent's own contracts and feed (docs/agents.md): GET /agents/:address/contracts, /feed (by
// cursor) and /feed/stream (Server-Sent Events; `Last-Event-ID` resumes after the last entry seen).
// Each reads the caller's own only: another agent's is 403.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { agentContractsPage } from '../contracts/agent-contracts';
import type { SignedEnv } from '../auth';
import type { AgentFeedContext, ApiContext } from '../deps';
import { badRequest, validationHook } from '../errors';
import type { AuthMiddleware } from '../middleware';
import { addressParams, errorResponses, json } from '../openapi/schemas';
import { feedStreamRoom, openStreamSlot, releaseOnClose, tooManyStreams } from '../http/stream-caps';
import { ownAddress } from './own-address';
import { pauser } from './pauser';

const ROLES = ['client', 'worker', 'bidder', 'backup-agent'] as const;
const ACTIONS = ['accept', 'deliver', 'review', 'vote', 'appeal'] as const;

const nextActionSchema = z.object({ action: z.enum(ACTIONS), deadline: z.string() });

export const agentContractsSchema = z
  .object({
    contracts: z.array(
      z.object({
        contractId: z.string(),
        role: z.enum(ROLES),
        roles: z.array(z.enum(ROLES)),
        status: z.string(),
        nextAction: z.enum(ACTIONS).nullable(),
        actionDeadline: z.string().nullable(),
        milestone: z.number().int().nullable().openapi({
          description: 'with milestones: the milestone the next action is for (0-based); null without them',
        }),
      }),
    ),
    nextCursor: z.string().nullable(),
  })
  .openapi('AgentContracts');

export const feedEntrySchema = z
  .object({
    id: z.string().openapi({ description: 'stable, increasing per agent: the cursor and the webhook-id' }),
    agent: z.string(),
    contractId: z.string(),
    type: z.enum(['contract.event', 'agent.named', 'agent.drawn', 'agent.reminder']),
    at: z.string(),
    event: z.record(z.string(), z.unknown()).optional(),
    role: z.enum(ROLES).optional(),
    nextAction: nextActionSchema.optional(),
  })
  .openapi('FeedEntry');

export const feedPageSchema = z
  .object({ entries: z.array(feedEntrySchema), next: z.string() })
  .openapi('FeedPage');

const contractsQuery = z
  .object({
    role: z.enum(ROLES).optional(),
    open: z.enum(['true', 'false']).optional(),
    cursor: z.string().max(512).optional(),
    limit: z.coerce.number().int().min(1).max(50).optional(),
  })
  .strict();

const feedQuery = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,15}$/, 'must be an entry id (a non-negative integer)')
      .optional(),
    limit: z.coerce.number().int().min(1).max(500).optional(),
  })
  .strict();

/** The entry id a stream resumes after: `Last-Event-ID`, else `after`, else 0. */
function resumeAfter(header: string | undefined, after: string | undefined): number {
  const value = header?.trim() || after;
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,15}$/.test(value))
    throw badRequest('Last-Event-ID must be a feed entry id (a non-negative integer)', {
      fields: [{ field: 'Last-Event-ID', message: 'must be a non-negative integer' }],
    });
  return Number(value);
}

export function agentFeedApp(ctx: ApiContext, feed: AgentFeedContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'get',
      path: '/{address}/contracts',
      summary: 'The caller’s contracts (any role, open and closed), newest first, each with its next action',
      middleware: [auth.signed],
      request: { params: addressParams, query: contractsQuery },
      responses: { 200: json(agentContractsSchema, 'a page of contracts'), ...errorResponses(400, 401, 403) },
    }),
    async (c) => {
      const agent = ownAddress(c.req.valid('param').address, c.var.caller, 'contracts');
      const q = c.req.valid('query');
      const page = await agentContractsPage(
        { store: feed.store, contracts: ctx.contracts, now: ctx.now },
        {
          agent,
          limit: q.limit ?? 20,
          ...(q.role === undefined ? {} : { role: q.role }),
          ...(q.open === undefined ? {} : { open: q.open === 'true' }),
          ...(q.cursor === undefined ? {} : { cursor: q.cursor }),
        },
      );
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{address}/feed',
      summary: 'The caller’s feed after entry `after`, oldest first; `next` is the cursor to ask with next',
      middleware: [auth.signed],
      request: { params: addressParams, query: feedQuery },
      responses: { 200: json(feedPageSchema, 'feed entries'), ...errorResponses(400, 401, 403) },
    }),
    async (c) => {
      const agent = ownAddress(c.req.valid('param').address, c.var.caller, 'feed');
      const q = c.req.valid('query');
      const after = Number(q.after ?? '0');
      const entries = await feed.store.read(agent, after, q.limit ?? 100);
      return c.json({ entries, next: entries[entries.length - 1]?.id ?? String(after) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{address}/feed/stream',
      summary:
        'The caller’s feed as Server-Sent Events: entries after Last-Event-ID (or `after`), then each new one',
      middleware: [auth.signed],
      request: {
        params: addressParams,
        query: feedQuery.pick({ after: true }),
        headers: z.object({ 'last-event-id': z.string().optional() }),
      },
      responses: {
        200: {
          description:
            'text/event-stream: one message per entry (`id` = the entry id, `data` = the entry as JSON)',
          content: { 'text/event-stream': { schema: z.string() } },
        },
        ...errorResponses(400, 401, 403, 429),
      },
    }),
    async (c) => {
      const agent = ownAddress(c.req.valid('param').address, c.var.caller, 'feed');
      let cursor = resumeAfter(c.req.header('Last-Event-ID'), c.req.valid('query').after);
      // Its own feed: reserved while it has money at stake, else counted for its address like a stranger.
      const room = (await ctx.limits.atStake(agent)) ? feedStreamRoom(agent) : undefined;
      const slot = await openStreamSlot(ctx.limits, c, room);
      if (slot === undefined) return tooManyStreams(c);
      const settings = ctx.eventStream;
      return streamSSE(c, async (stream) => {
        releaseOnClose(ctx.limits.streams, slot, stream);
        const pause = pauser(stream);
        const startedAt = Date.now();
        let lastWrite = Date.now();
        while (!stream.aborted) {
          for (;;) {
            const entries = await feed.store.read(agent, cursor, 100);
            for (const entry of entries) {
              await stream.writeSSE({ id: entry.id, data: JSON.stringify(entry) });
              cursor = Number(entry.id);
              lastWrite = Date.now();
            }
            if (entries.length < 100) break;
          }
          if (Date.now() - startedAt >= settings.maxDurationMs) {
            await stream.writeSSE({ event: 'end', data: JSON.stringify({ reason: 'time-limit' }) });
            return;
          }
          if (Date.now() - lastWrite >= settings.heartbeatMs) {
            await stream.write(': keep-alive\n\n');
            lastWrite = Date.now();
          }
          await pause(settings.pollMs);
          await ctx.limits.streams.heartbeat(slot);
        }
      });
    },
  );
  return app;
}
