// Money leaving: POST/GET /agents/:address/withdrawals (the agent, signed) and the operator's payout
// queue, GET /operator/payouts and POST /operator/payouts/:id/paid. A withdrawal is one ledger
// operation (agent → the USDC mint, the outside), applied once per Idempotency-Key; sending the money
// is the operator's payout rail, outside this service, which marks the payout paid when it is sent.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import { agentOwner } from '../../store/ledger';
import { positiveAmountSchema } from '../../workflows/rules/money';
import type { SignedEnv } from '../auth';
import { keyToken } from '../contracts/ids';
import type { ApiContext } from '../deps';
import { badRequest, notFound, validationHook } from '../errors';
import { IDEMPOTENCY_HEADER } from '../http/idempotency';
import type { AuthMiddleware } from '../middleware';
import { addressParams, balancesSchema, errorResponses, json } from '../openapi/schemas';
import { balancesToWire } from '../openapi/wire';
import { ownAddress } from './own-address';

export const withdrawalBody = z
  .object({
    amount: positiveAmountSchema,
    destination: z
      .string()
      .trim()
      .min(1)
      .max(200)
      // Shown verbatim in the operator's payout queue: no line breaks, control or bidi characters.
      .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII (letters, digits, punctuation, spaces)')
      .openapi({
        description:
          'where the operator sends the money (an address, an account reference): printable ASCII, at most 200 characters',
      }),
  })
  .strict()
  .openapi('WithdrawalRequest');

export const payoutSchema = z
  .object({
    id: z.string(),
    address: z.string(),
    amount: z.string(),
    destination: z.string(),
    status: z.enum(['pending', 'paid']),
    requestedAt: z.string(),
    paidAt: z.string().nullable(),
    reference: z.string().nullable(),
  })
  .openapi('Payout');
export const withdrawalResultSchema = balancesSchema
  .extend({ withdrawal: payoutSchema })
  .openapi('WithdrawalResult');
export const payoutListSchema = z.object({ payouts: z.array(payoutSchema) }).openapi('PayoutList');
const paidBody = z
  .object({ reference: z.string().trim().min(1).max(200) })
  .strict()
  .openapi('PayoutPaid');

export function withdrawalsApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    // The withdrawal's id is derived from its Idempotency-Key: no key, no withdrawal.
    accessRoute(
      { ...auth.access.signedMutation, keyed: 'required' },
      {
        method: 'post',
        path: '/{address}/withdrawals',
        summary: 'Withdraw available USDC to `destination` (the caller’s own; Idempotency-Key required)',
        request: {
          params: addressParams,
          body: { required: true, content: { 'application/json': { schema: withdrawalBody } } },
        },
        responses: {
          201: json(withdrawalResultSchema, 'the withdrawal, pending payout, and the balances after it'),
          ...errorResponses(400, 401, 402, 403, 409, 413, 422),
        },
      },
    ),
    async (c) => {
      const address = ownAddress(c.req.valid('param').address, c.var.caller, 'withdrawals');
      const key = c.req.header(IDEMPOTENCY_HEADER);
      if (key === undefined)
        throw badRequest('a withdrawal needs an Idempotency-Key header', undefined, 'invalid_input');
      const { amount, destination } = c.req.valid('json');
      const id = `withdrawal:${keyToken(address, 'withdraw', key)}`;
      // The ledger applies the id once; a retry after a crash between the two steps replays it and records the row.
      await ctx.ledger.withdraw({ id, asset: 'USDC', from: agentOwner(address), amount });
      const withdrawal = await ctx.payouts.record({
        id,
        address,
        amount: amount.toString(),
        destination,
        requestedAt: ctx.now(),
      });
      const balances = await ctx.ledger.balances(agentOwner(address));
      return c.json({ ...balancesToWire(address, balances), withdrawal }, 201);
    },
  );
  app.openapi(
    accessRoute(auth.access.signed, {
      method: 'get',
      path: '/{address}/withdrawals',
      summary: 'The caller’s own withdrawals, oldest first, each pending or paid',
      request: { params: addressParams },
      responses: { 200: json(payoutListSchema, 'withdrawals'), ...errorResponses(400, 401, 403) },
    }),
    async (c) => {
      const address = ownAddress(c.req.valid('param').address, c.var.caller, 'withdrawals');
      return c.json({ payouts: await ctx.payouts.listOf(address) }, 200);
    },
  );
  return app;
}

export function payoutsOperatorApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.operatorRead, {
      method: 'get',
      path: '/',
      summary: 'Withdrawals waiting to be paid out, oldest first (operator token)',
      responses: { 200: json(payoutListSchema, 'pending payouts'), ...errorResponses(401) },
    }),
    async (c) => c.json({ payouts: await ctx.payouts.pending() }, 200),
  );
  app.openapi(
    accessRoute(auth.access.operator, {
      method: 'post',
      path: '/{id}/paid',
      summary: 'Mark a payout sent, with the payment’s reference (operator token)',
      request: {
        params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) }),
        body: { required: true, content: { 'application/json': { schema: paidBody } } },
      },
      responses: { 200: json(payoutSchema, 'the payout'), ...errorResponses(400, 401, 404, 422) },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const payout = await ctx.payouts.markPaid(id, c.req.valid('json').reference, ctx.now());
      if (payout === undefined) throw notFound(`no payout ${id}`, undefined, 'not_found');
      return c.json(payout, 200);
    },
  );
  return app;
}
