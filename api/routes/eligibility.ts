// /eligibility/lock · /unlock: the BA Eligibility Stake (docs/protocol.md §8), through the same ledger
// functions the workflows' activities use (store/ledger/eligibility.ts). The hold id comes from the Idempotency-Key when there is one.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { accessRoute, PUBLIC_ACCESS } from '../http/route-access';
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { agentOwner } from '../../store/ledger';
import { lockEligibility, unlockEligibility } from '../../store/ledger/eligibility';
import type { SignedEnv } from '../auth';
import { keyToken } from '../contracts/ids';
import { seatWaker } from '../contracts/seat-wake';
import { PerKeyQueue } from '../http/per-key-queue';
import type { ApiContext } from '../deps';
import { validationHook } from '../errors';
import { IDEMPOTENCY_HEADER } from '../http/idempotency';
import type { AuthMiddleware } from '../middleware';
import {
  eligibilityLockBody,
  eligibilitySchema,
  eligibilityUnlockBody,
  errorResponses,
} from '../openapi/schemas';
import { balancesToWire } from '../openapi/wire';

function operationKey(c: Context, caller: string, action: string): string {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  return key === undefined ? randomUUID().replaceAll('-', '') : keyToken(caller, action, key);
}

const ok = {
  description: 'the caller’s balances after the change',
  content: { 'application/json': { schema: eligibilitySchema } },
};

export const requirementsSchema = z
  .object({
    eligibilityStake: z.string().openapi({ description: 'USDC an agent keeps locked to be drawn' }),
    baBond: z
      .string()
      .openapi({ description: 'USDC of the eligibility stake each seat holds while its panel sits' }),
    baPanelSize: z.number().int(),
  })
  .openapi('EligibilityRequirements');

export function eligibilityApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  const perAgent = new PerKeyQueue();
  const wakeWaitingContract = seatWaker(ctx);

  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/requirements',
      summary:
        'What a Backup Agent must lock: the eligibility stake, and the bond it locks when it votes (public)',
      responses: {
        200: { description: 'requirements', content: { 'application/json': { schema: requirementsSchema } } },
      },
    }),
    (c) =>
      c.json(
        {
          eligibilityStake: ctx.params.baEligibilityStake.toString(),
          baBond: ctx.params.baBond.toString(),
          baPanelSize: ctx.params.baPanelSize,
        },
        200,
      ),
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/lock',
      summary: 'Add `amount` to the caller’s BA Eligibility Stake',
      request: { body: { required: true, content: { 'application/json': { schema: eligibilityLockBody } } } },
      responses: { 200: ok, ...errorResponses(400, 401, 402, 413, 422) },
    }),
    async (c) => {
      const caller = c.var.caller;
      const { amount } = c.req.valid('json');
      const key = operationKey(c, caller, 'lock');
      await perAgent.run(caller, () => lockEligibility(ctx.ledger, agentOwner(caller), amount, key));
      await wakeWaitingContract(); // the stake may seat a contract waiting for its panel
      const balances = await ctx.ledger.balances(agentOwner(caller));
      return c.json({ ...balancesToWire(caller, balances), locked: amount.toString() }, 200);
    },
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/unlock',
      summary:
        'Release `amount` of the caller’s free eligibility stake (all of it when omitted); what its open seats hold stays',
      request: { body: { content: { 'application/json': { schema: eligibilityUnlockBody } } } },
      responses: { 200: ok, ...errorResponses(400, 401, 402, 413, 422) },
    }),
    async (c) => {
      const caller = c.var.caller;
      const { amount } = c.req.valid('json');
      const key = operationKey(c, caller, 'unlock');
      const released = await perAgent.run(caller, () =>
        unlockEligibility(ctx.ledger, agentOwner(caller), amount, key),
      );
      const balances = await ctx.ledger.balances(agentOwner(caller));
      return c.json({ ...balancesToWire(caller, balances), released: released.toString() }, 200);
    },
  );
  return app;
}
