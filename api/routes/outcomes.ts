// /outcomes: the public, hash-chained outcome log, paged, and its head; /agents/:address/reputation:
// raw figures and the trust-weighted score from the viewer (docs/reputation.md). Anyone reads them.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { SignedEnv } from '../auth';
import { badRequest, notFound, validationHook } from '../errors';
import type { AuthMiddleware } from '../middleware';
import { accessRoute, PUBLIC_ACCESS } from '../http/route-access';
import {
  outcomeHeadSchema,
  outcomePageSchema,
  outcomesQuerySchema,
  reputationQuerySchema,
  reputationSchema,
} from '../openapi/reputation-schemas';
import { addressParams, errorResponses, json } from '../openapi/schemas';
import type { OutcomeLog } from '../../store/outcomes';
import type { ReputationIndex, TrustFrom } from '../../store/outcomes/reputation-index';
import { isAddress } from '../../workflows/rules/address';
import { GENESIS_HASH } from '../../workflows/rules/outcomes';
import { pathAddress } from './own-address';

export interface OutcomeDeps {
  log: OutcomeLog;
  index: ReputationIndex;
  /** The operator's trust anchors: where an unsigned read without `viewer` restarts. */
  trustAnchors: readonly string[];
}

const DEFAULT_PAGE = 100;

function configured(deps: OutcomeDeps | undefined): OutcomeDeps {
  if (deps === undefined) throw notFound('this service keeps no outcome log', undefined, 'not_found');
  return deps;
}

export function outcomesApp(deps: OutcomeDeps | undefined) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/',
      // Public: no signature needed.
      summary: 'The outcome log, paged in sequence order (public, content-free, hash-chained)',
      request: { query: outcomesQuerySchema },
      responses: { 200: json(outcomePageSchema, 'a page of records'), ...errorResponses(400) },
    }),
    async (c) => {
      const { log } = configured(deps);
      const q = c.req.valid('query');
      const limit = Math.min(Number(q.limit ?? DEFAULT_PAGE), 1000);
      const records = await log.list(Number(q.after ?? 0), limit);
      const next = records.length === limit ? records[records.length - 1]!.sequence : null;
      return c.json({ records, next }, 200);
    },
  );
  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/head',
      // Public: no signature needed.
      summary: 'The outcome log’s head: its last sequence and hash',
      responses: { 200: json(outcomeHeadSchema, 'the head') },
    }),
    async (c) => {
      const head = await configured(deps).log.head();
      return c.json(head ?? { sequence: 0, hash: GENESIS_HASH }, 200);
    },
  );
  return app;
}

export function reputationApp(deps: OutcomeDeps | undefined, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  app.openapi(
    accessRoute(auth.access.optionallySigned, {
      method: 'get',
      path: '/{address}/reputation',
      // Optional: the signed caller is the default viewer.
      summary: 'An agent’s raw reputation per role and its trust-weighted score from the viewer',
      request: { params: addressParams, query: reputationQuerySchema },
      responses: {
        200: json(reputationSchema, 'raw and trust-weighted figures'),
        ...errorResponses(400, 401),
      },
    }),
    async (c) => {
      const { index, trustAnchors } = configured(deps);
      const address = pathAddress(c.req.valid('param').address);
      const { viewer } = c.req.valid('query');
      const caller = c.var.caller as string | undefined;
      let from: TrustFrom;
      if (viewer !== undefined) {
        if (!isAddress(viewer)) throw badRequest('viewer must be 0x + 40 hex', undefined, 'invalid_input');
        from = { kind: 'viewer', viewer: viewer.toLowerCase() };
      } else if (caller !== undefined) from = { kind: 'viewer', viewer: caller };
      else if (trustAnchors.length > 0) from = { kind: 'anchors', anchors: trustAnchors };
      else
        from = {
          kind: 'none',
          reason: 'unsigned read without a viewer, and the operator configured no trust anchors',
        };
      return c.json(await index.reputation(address, from), 200);
    },
  );
  return app;
}
