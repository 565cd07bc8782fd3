// /operator/deposits: the operator credits an agent with USDC brought in from outside. Bearer
// token, no signature (docs/api.md); the deposit's ledger id comes from the Idempotency-Key if any.
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import { randomUUID } from 'node:crypto';
import { agentOwner } from '../../store/ledger';
import { keyToken } from '../contracts/ids';
import type { ApiContext } from '../deps';
import { validationHook } from '../errors';
import { IDEMPOTENCY_HEADER } from '../http/idempotency';
import type { AuthMiddleware } from '../middleware';
import { depositBody, depositResultSchema, errorResponses } from '../openapi/schemas';
import { balancesToWire } from '../openapi/wire';

export function operatorApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.operator, {
      method: 'post',
      path: '/deposits',
      summary: 'Credit an agent with USDC (operator token)',
      request: { body: { required: true, content: { 'application/json': { schema: depositBody } } } },
      responses: {
        200: {
          description: 'the agent’s balances after the deposit',
          content: { 'application/json': { schema: depositResultSchema } },
        },
        ...errorResponses(400, 401, 413, 422),
      },
    }),
    async (c) => {
      const { address: given, asset, amount } = c.req.valid('json');
      const address = given.toLowerCase();
      const key = c.req.header(IDEMPOTENCY_HEADER);
      const id = `deposit:${key === undefined ? randomUUID() : keyToken('operator', key)}`;
      await ctx.ledger.deposit({ id, asset, to: agentOwner(address), amount });
      const balances = await ctx.ledger.balances(agentOwner(address));
      return c.json({ ...balancesToWire(address, balances), asset, deposited: amount.toString() }, 200);
    },
  );
  return app;
}
