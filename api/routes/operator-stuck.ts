// The operator's tools for money that cannot move by the rules (docs/operations.md), operator token:
// POST /operator/contracts/{id}/resolve (a contract flagged needs-operator: retry or release),
// POST /operator/contracts/{id}/verdicts (the trusted arbiter's verdicts for a contract without a panel),
// GET /operator/stuck-holds (open holds of closed contracts) and POST /operator/stuck-holds/release.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import type { ApiContext } from '../deps';
import { validationHook } from '../errors';
import type { AuthMiddleware } from '../middleware';
import { contractIdParams, errorResponses, json } from '../openapi/schemas';

const resolveBody = z
  .object({
    action: z.enum(['retry', 'release']).openapi({
      description: '`retry` runs the refused step again; `release` returns every hold to its owner',
    }),
  })
  .strict()
  .openapi('ResolveStuckRequest');

const stuckStepSchema = z
  .object({ step: z.string(), failureType: z.string(), since: z.string() })
  .openapi('StuckStep');

const resolveResultSchema = z
  .object({ contractId: z.string(), status: z.string(), needsOperator: stuckStepSchema.nullable() })
  .openapi('ResolveStuckResult');

const verdictsBody = z
  .object({
    verdicts: z
      .array(z.enum(['met', 'not met']))
      .min(1)
      .max(10)
      .openapi({ description: 'one verdict per acceptance criterion, in criterion order' }),
  })
  .strict()
  .openapi('ArbiterVerdictsRequest');

export const verdictsResultSchema = z
  .object({
    contractId: z.string(),
    status: z.string(),
    criteriaMet: z.array(z.enum(['met', 'not met', 'unclear'])).nullable(),
  })
  .openapi('ArbiterVerdictsResult');

const strandedHoldSchema = z
  .object({
    holdId: z.string(),
    contractId: z.string(),
    owner: z.string(),
    kind: z.string(),
    amount: z.string(),
    createdAt: z.string(),
  })
  .openapi('StrandedHold');
const strandedListSchema = z.object({ holds: z.array(strandedHoldSchema) }).openapi('StrandedHolds');

export function stuckOperatorApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.operator, {
      method: 'post',
      path: '/contracts/{id}/resolve',
      summary: 'Resolve a contract waiting for the operator: retry its step or release its holds',
      request: {
        params: contractIdParams,
        body: { required: true, content: { 'application/json': { schema: resolveBody } } },
      },
      responses: {
        200: json(resolveResultSchema, 'the contract after the action: done, or waiting again'),
        ...errorResponses(400, 401, 404, 409),
      },
    }),
    async (c) => {
      const { action } = c.req.valid('json');
      return c.json(await ctx.stuck.resolve(c.req.param('id'), action), 200);
    },
  );
  app.openapi(
    accessRoute(auth.access.operator, {
      method: 'post',
      path: '/contracts/{id}/verdicts',
      summary:
        'Decide, as trusted arbiter, a contract whose recruitment window passed without a full panel (final; settles it)',
      request: {
        params: contractIdParams,
        body: { required: true, content: { 'application/json': { schema: verdictsBody } } },
      },
      responses: {
        200: json(verdictsResultSchema, 'the contract settled by the verdicts'),
        ...errorResponses(400, 401, 404, 409),
      },
    }),
    async (c) => {
      const { verdicts } = c.req.valid('json');
      return c.json(await ctx.stuck.arbitrate(c.req.param('id'), verdicts), 200);
    },
  );
  app.openapi(
    accessRoute(auth.access.operatorRead, {
      method: 'get',
      path: '/stuck-holds',
      summary: 'Open holds whose contract is closed (the reconciler’s report)',
      responses: { 200: json(strandedListSchema, 'stranded holds, oldest first'), ...errorResponses(401) },
    }),
    async (c) => c.json({ holds: await ctx.stuck.strandedHolds() }, 200),
  );
  app.openapi(
    accessRoute(auth.access.operator, {
      method: 'post',
      path: '/stuck-holds/release',
      summary: 'Release every open hold of a closed contract to its owner',
      responses: { 200: json(strandedListSchema, 'the holds released'), ...errorResponses(401) },
    }),
    async (c) => c.json({ holds: await ctx.stuck.releaseStranded() }, 200),
  );
  return app;
}
