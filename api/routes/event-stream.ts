// GET /contracts/:id/events/stream: the content-free event log as Server-Sent Events (docs/scoring.md §6). The
// events already logged are sent first, then each new one as the workflow records it (the read model's
// log, polled: a database read, docs/records.md). Each message's `id` is the event's 1-based position in
// the log, so a client that reconnects with `Last-Event-ID` gets only what it missed. The stream ends with
// an `end` message once the contract is terminal (a reconnect after that is answered 204: EventSource stops
// retrying), when the client disconnects, or after `maxDurationMs` (the client reconnects and resumes).
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import { streamSSE } from 'hono/streaming';
import type { ContractEvent } from '../../workflows/rules/events';
import { existingContract } from '../contracts/requests';
import type { ApiContext } from '../deps';
import { badRequest, validationHook } from '../errors';
import { roleOf } from '../contracts/views';
import { eventsVisibleTo } from '../contracts/event-privacy';
import type { AuthMiddleware, MaybeSignedEnv } from '../middleware';
import { contractIdParams, errorResponses } from '../openapi/schemas';
import { contractStreamRoom, openStreamSlot, releaseOnClose, tooManyStreams } from '../http/stream-caps';
import { pauser } from './pauser';

const TERMINAL_EVENTS: ReadonlySet<ContractEvent['type']> = new Set([
  'contract.settled',
  'contract.cancelled',
]);

function isClosed(events: readonly ContractEvent[]): boolean {
  return events.some((e) => TERMINAL_EVENTS.has(e.type));
}

/** How many events the client already has: `Last-Event-ID` (a position), 0 when absent. */
function alreadySeen(header: string | undefined): number {
  if (header === undefined || header.trim() === '') return 0;
  if (!/^\d{1,9}$/.test(header.trim())) {
    throw badRequest('Last-Event-ID must be an event position (a non-negative integer)', {
      fields: [{ field: 'Last-Event-ID', message: 'must be a non-negative integer' }],
    });
  }
  return Number(header.trim());
}

export function eventStreamApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<MaybeSignedEnv>({ defaultHook: validationHook });
  const settings = ctx.eventStream;
  app.openapi(
    accessRoute(auth.access.optionallySigned, {
      method: 'get',
      path: '/{id}/events/stream',
      // Optional, like GET /contracts/:id/events: addresses for the parties only.
      summary: 'The content-free event log as Server-Sent Events: the past events, then each new one',
      request: {
        params: contractIdParams,
        headers: z.object({ 'last-event-id': z.string().optional() }),
      },
      responses: {
        200: {
          description:
            'text/event-stream: one message per event (`id` = its 1-based position, `data` = the event as JSON), then `event: end` once the contract is terminal',
          content: { 'text/event-stream': { schema: z.string() } },
        },
        204: { description: 'the contract is terminal and the client has every event' },
        ...errorResponses(400, 401, 404, 429),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const seen = alreadySeen(c.req.header('Last-Event-ID'));
      const view = await existingContract(ctx, id);
      const visible = eventsVisibleTo(view, c.var.caller);
      const first = await ctx.contracts.eventLog(id);
      if (isClosed(first) && seen >= first.length) return c.body(null, 204);
      const caller = c.var.caller;
      const party = caller !== undefined && roleOf(view, caller) !== null;
      const slot = await openStreamSlot(ctx.limits, c, party ? contractStreamRoom(id, caller) : undefined);
      if (slot === undefined) return tooManyStreams(c);

      return streamSSE(c, async (stream) => {
        releaseOnClose(ctx.limits.streams, slot, stream);
        const pause = pauser(stream);
        const startedAt = Date.now();
        let sent = Math.min(seen, first.length);
        let lastWrite = Date.now();
        let events = first;
        for (;;) {
          const shown = visible(events);
          for (; sent < events.length; sent++) {
            await stream.writeSSE({ id: String(sent + 1), data: JSON.stringify(shown[sent]) });
            lastWrite = Date.now();
          }
          if (isClosed(events)) {
            await stream.writeSSE({
              event: 'end',
              data: JSON.stringify({ contractId: id, reason: 'terminal' }),
            });
            return;
          }
          if (Date.now() - startedAt >= settings.maxDurationMs) {
            await stream.writeSSE({
              event: 'end',
              data: JSON.stringify({ contractId: id, reason: 'time-limit' }),
            });
            return;
          }
          if (Date.now() - lastWrite >= settings.heartbeatMs) {
            await stream.write(': keep-alive\n\n');
            lastWrite = Date.now();
          }
          await pause(settings.pollMs);
          if (stream.aborted) return;
          await ctx.limits.streams.heartbeat(slot);
          try {
            events = await ctx.contracts.eventLog(id);
          } catch {
            // Temporal did not answer: say so (content-free) and end; the client resumes later.
            await stream.writeSSE({ event: 'error', data: JSON.stringify({ code: 'temporal_unavailable' }) });
            return;
          }
        }
      });
    },
  );
  return app;
}
