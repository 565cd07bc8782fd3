// Auction routes (docs/protocol.md §5, docs/auction.md): a bidder's quote and the Client's award, each sent to the
// contract's workflow as an Update whose validator answers at once (over the cap, the Client's own
// bid, bidding closed, an unknown quote). Roles and states are the workflow's to check.
import { callerInput } from '../mandates/access';
import { OpenAPIHono } from '@hono/zod-openapi';
import { awardUpdate, quoteUpdate, type QuoteInput } from '../../workflows/definitions';
import { toWire } from '../../workflows/rules/money';
import { viewFor } from '../contracts/views';
import type { ApiContext } from '../deps';
import { validationHook } from '../errors';
import type { SignedEnv } from '../auth';
import type { AuthMiddleware } from '../middleware';
import { accessRoute } from '../http/route-access';
import {
  awardBody,
  contractIdParams,
  contractViewSchema,
  errorResponses,
  quoteBody,
} from '../openapi/schemas';
import { contractIdOf, updateId } from '../contracts/requests';
import { requireBidBondFunds } from '../contracts/bid-bond-precheck';

const viewResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: contractViewSchema } },
});

export function quotesApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{id}/quotes',
      summary:
        'Quote on an auction as any agent but the Client, before bidding closes; the quote holds its bid bond (the Worker Stake for its price); a new quote replaces the caller’s earlier one and moves the bond',
      request: {
        params: contractIdParams,
        body: { required: true, content: { 'application/json': { schema: quoteBody } } },
      },
      responses: {
        201: viewResponse(
          'the caller’s view after the quote, with its own quote as `ownQuote` (its `bidBond` is held)',
        ),
        ...errorResponses(400, 402, 403, 404, 409),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = contractIdOf(c.req.valid('param').id);
      const { price, confidence, message } = c.req.valid('json');
      const input: QuoteInput = {
        ...callerInput(c),
        price: toWire(price),
        ...(confidence === undefined ? {} : { confidence }),
        ...(message === undefined ? {} : { message }),
      };
      await requireBidBondFunds(ctx, id, caller, price);
      const view = await ctx.contracts.send(id, quoteUpdate, input, updateId(c, caller));
      return c.json(viewFor(view, caller), 201);
    },
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{id}/award',
      summary:
        'Close an auction’s bidding early as the Client: `quoteId` picks that quote (owner pick); without it the best quote wins now',
      request: {
        params: contractIdParams,
        body: { content: { 'application/json': { schema: awardBody } } },
      },
      responses: {
        200: viewResponse('the Client’s view after the close: matched, or cancelled-unmatched'),
        // No 402: every quote already holds its bond, so closing never locks money.
        ...errorResponses(400, 403, 404, 409),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = contractIdOf(c.req.valid('param').id);
      const { quoteId } = c.req.valid('json');
      const input = { ...callerInput(c), ...(quoteId === undefined ? {} : { quoteId }) };
      const view = await ctx.contracts.send(id, awardUpdate, input, updateId(c, caller));
      return c.json(viewFor(view, caller), 200);
    },
  );
  return app;
}
