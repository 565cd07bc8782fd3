// /eligibility/lock · /unlock: the BA Eligibility Stake (docs/protocol.md §8), through the same ledger
// activities the workflows use. The hold id comes from the Idempotency-Key when there is one.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { agentOwner } from '../../activities/ledger';
import { createLedgerActivities } from '../../activities/ledger-activities';
import type { SignedEnv } from '../auth';
import { keyToken } from '../contract-ids';
import type { ApiContext } from '../deps';
import { validationHook } from '../errors';
import { IDEMPOTENCY_HEADER } from '../idempotency';
import type { AuthMiddleware } from '../middleware';
import { eligibilityLockBody, eligibilitySchema, eligibilityUnlockBody, errorResponses } from '../schemas';
import { balancesToWire } from '../wire';

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
    baBond: z.string().openapi({ description: 'USDC a drawn BA locks with its votes' }),
    baPanelSize: z.number().int(),
  })
  .openapi('EligibilityRequirements');

export function eligibilityApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  const ledgerActivities = createLedgerActivities({ ledger: ctx.ledger });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/requirements',
      security: [],
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
    createRoute({
      method: 'post',
      path: '/lock',
      summary: 'Add `amount` to the caller’s BA Eligibility Stake',
      middleware: [...auth.signedMutation],
      request: { body: { required: true, content: { 'application/json': { schema: eligibilityLockBody } } } },
      responses: { 200: ok, ...errorResponses(400, 401, 402, 413, 422) },
    }),
    async (c) => {
      const caller = c.var.caller;
      const { amount } = c.req.valid('json');
      await ledgerActivities.lockEligibility({
        address: caller,
        amount: amount.toString(),
        key: operationKey(c, caller, 'lock'),
      });
      const balances = await ctx.ledger.balances(agentOwner(caller));
      return c.json({ ...balancesToWire(caller, balances), locked: amount.toString() }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/unlock',
      summary: 'Release `amount` of the caller’s eligibility stake (all of it when omitted)',
      middleware: [...auth.signedMutation],
      request: { body: { content: { 'application/json': { schema: eligibilityUnlockBody } } } },
      responses: { 200: ok, ...errorResponses(400, 401, 402, 409, 413, 422) },
    }),
    async (c) => {
      const caller = c.var.caller;
      const { amount } = c.req.valid('json');
      await ctx.eligibilityUnlockCheck(caller);
      const { released } = await ledgerActivities.unlockEligibility({
        address: caller,
        ...(amount === undefined ? {} : { amount: amount.toString() }),
        key: operationKey(c, caller, 'unlock'),
      });
      const balances = await ctx.ledger.balances(agentOwner(caller));
      return c.json({ ...balancesToWire(caller, balances), released }, 200);
    },
  );
  return app;
}
