// /agents/:address/balances: an agent reads its own balances only (docs/api.md).
// /agents/:address/votes: anyone reads an agent's vote rows (docs/protocol.md §8), from the panel registry.
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute, PUBLIC_ACCESS } from '../http/route-access';
import { agentOwner } from '../../store/ledger';
import type { SignedEnv } from '../auth';
import type { ApiContext } from '../deps';
import { validationHook } from '../errors';
import type { AuthMiddleware } from '../middleware';
import { addressParams, balancesSchema, errorResponses, agentVoteRowsSchema } from '../openapi/schemas';
import { balancesToWire } from '../openapi/wire';
import { ownAddress, pathAddress } from './own-address';

export function agentsApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.signed, {
      method: 'get',
      path: '/{address}/balances',
      summary: 'The caller’s own balances (an eligibility stake counts as held)',
      request: { params: addressParams },
      responses: {
        200: { description: 'balances', content: { 'application/json': { schema: balancesSchema } } },
        ...errorResponses(400, 401, 403),
      },
    }),
    async (c) => {
      const address = ownAddress(c.req.valid('param').address, c.var.caller, 'balances');
      return c.json(balancesToWire(address, await ctx.ledger.balances(agentOwner(address))), 200);
    },
  );
  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/{address}/votes',
      // Public: no signature needed.
      summary: 'An agent’s vote rows over every tallied panel (public)',
      request: { params: addressParams },
      responses: {
        200: { description: 'vote rows', content: { 'application/json': { schema: agentVoteRowsSchema } } },
        ...errorResponses(400),
      },
    }),
    async (c) => {
      const address = pathAddress(c.req.valid('param').address);
      const rows = await ctx.ledger.panels.voteRowsOf(address);
      return c.json({ address, rows: rows.map((r) => ({ ...r, reward: r.reward.toString() })) }, 200);
    },
  );
  return app;
}
