// An owner's mandates (docs/agents.md "Mandates"): POST /agents/:address/mandates grants a delegate key
// limits on what it may commit of the owner's balance; GET lists them with what each has committed and
// has left; DELETE revokes one at once. Only the owner grants and revokes (api/mandates/access.ts keeps
// delegates out); a delegate may read its owner's list.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { randomBytes } from 'node:crypto';
import type { MandateStanding } from '../../store/ledger';
import { mandateLapse } from '../../store/ledger';
import type { SignedEnv } from '../auth';
import type { ApiContext } from '../deps';
import { badRequest, notFound, validationHook } from '../errors';
import type { AuthMiddleware } from '../middleware';
import { accessRoute } from '../http/route-access';
import {
  addressParams,
  errorResponses,
  json,
  mandateBody,
  mandateListSchema,
  mandateSchema,
} from '../openapi/schemas';
import { ownAddress } from './own-address';

const mandateParams = addressParams.extend({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'm-8f14e45fceea167a5a36dedd4bea2543' }),
});

function toWire(m: MandateStanding, now: string) {
  return {
    id: m.id,
    owner: m.owner,
    delegate: m.delegate,
    limits: {
      perContract: m.limits.perContract.toString(),
      total: m.limits.total.toString(),
      perDay: m.limits.perDay.toString(),
      roles: m.limits.roles,
      counterparties: m.limits.counterparties,
    },
    expiresAt: m.expiresAt,
    createdAt: m.createdAt,
    revokedAt: m.revokedAt,
    state: (() => {
      const lapse = mandateLapse(m, now);
      return lapse === null
        ? ('live' as const)
        : lapse === 'mandate_revoked'
          ? ('revoked' as const)
          : ('expired' as const);
    })(),
    committed: m.committed.toString(),
    committedLastDay: m.committedLastDay.toString(),
    left: m.left.toString(),
  };
}

export function mandatesApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  const nowIso = () => new Date(ctx.now()).toISOString();
  const standing = async (owner: string, id: string) => {
    const found = (await ctx.ledger.mandates.list(owner)).find((m) => m.id === id);
    if (found === undefined) throw notFound(`no mandate ${id} of this agent`, undefined, 'mandate_not_found');
    return toWire(found, nowIso());
  };

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{address}/mandates',
      summary:
        'Grant a delegate key a mandate: what it may commit of the caller’s balance (per contract, at once, per 24 h), in which roles, with whom, until when',
      request: {
        params: addressParams,
        body: { required: true, content: { 'application/json': { schema: mandateBody } } },
      },
      responses: {
        201: json(mandateSchema, 'the mandate, live'),
        ...errorResponses(400, 403, 409),
      },
    }),
    async (c) => {
      const owner = ownAddress(c.req.valid('param').address, c.var.caller, 'mandates');
      const { delegate, limits, expiresAt } = c.req.valid('json');
      const field = (name: string, message: string) =>
        badRequest(message, { fields: [{ field: name, message }] }, 'invalid_input');
      if (delegate === owner) throw field('delegate', 'must be another key than the owner’s');
      const createdAt = nowIso();
      const expires = new Date(expiresAt).toISOString();
      if (expires <= createdAt) throw field('expiresAt', 'must be in the future');
      const mandate = await ctx.ledger.mandates.grant({
        id: `m-${randomBytes(16).toString('hex')}`,
        owner,
        delegate,
        limits: {
          perContract: limits.perContract,
          total: limits.total,
          perDay: limits.perDay,
          roles: limits.roles === undefined ? null : [...new Set(limits.roles)],
          counterparties: limits.counterparties === undefined ? null : [...new Set(limits.counterparties)],
        },
        expiresAt: expires,
        createdAt,
      });
      return c.json(await standing(owner, mandate.id), 201);
    },
  );

  app.openapi(
    accessRoute(auth.access.signed, {
      method: 'get',
      path: '/{address}/mandates',
      summary: 'The owner’s mandates, newest first, each with what it has committed and what it has left',
      request: { params: addressParams },
      responses: {
        200: json(mandateListSchema, 'the mandates'),
        ...errorResponses(400, 403),
      },
    }),
    async (c) => {
      const owner = ownAddress(c.req.valid('param').address, c.var.caller, 'mandates');
      const now = nowIso();
      return c.json({ mandates: (await ctx.ledger.mandates.list(owner)).map((m) => toWire(m, now)) }, 200);
    },
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'delete',
      path: '/{address}/mandates/{id}',
      summary:
        'Revoke a mandate at once: its delegate’s next message is refused; the contracts it opened go on, the owner acts in them',
      request: { params: mandateParams },
      responses: {
        200: json(mandateSchema, 'the mandate, revoked'),
        ...errorResponses(400, 403, 404),
      },
    }),
    async (c) => {
      const { address, id } = c.req.valid('param');
      const owner = ownAddress(address, c.var.caller, 'mandates');
      if ((await ctx.ledger.mandates.revoke(owner, id)) === undefined)
        throw notFound(`no mandate ${id} of this agent`, undefined, 'mandate_not_found');
      return c.json(await standing(owner, id), 200);
    },
  );
  return app;
}
