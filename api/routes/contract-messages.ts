// The messages that change a contract (accept, decline, cancel, withdraw, deliveries, approve): each
// is sent to the contract's workflow as an Update, whose validator answers at once (docs/api.md "Routes"); the
// answer is the caller's view after the change. Roles and states are the workflow's to check; a
// refused delivery is answered by the API's own checks of the view (a retry of the accepted delivery,
// a keyed retry's earlier answer, the evidence against the criteria), which also run before its
// Update while the API does not know the contract's criteria. Its key and content reach the vault
// only once the workflow has accepted it (api/contracts/delivery-seal.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute } from '../http/route-access';
import type { UpdateDefinition } from '@temporalio/common';
import {
  acceptUpdate,
  approveUpdate,
  cancelUpdate,
  appealUpdate,
  disputeUpdate,
  requestChangesUpdate,
  voteUpdate,
  declineUpdate,
  deliverUpdate,
  withdrawUpdate,
  type CallerInput,
  type ContractView,
  type DeliverInput,
  type MessageReceipt,
} from '../../workflows/definitions';
import { viewFor } from '../contracts/views';
import type { ApiContext } from '../deps';
import { badRequest, conflict, forbidden, invalidFields, validationHook } from '../errors';
import { deliverInput, isAcceptedDelivery, sealDelivery } from '../contracts/delivery-seal';
import {
  evidenceCriteriaErrors,
  parseDeliveryBody,
  type DeliveryIngestResult,
  type NormalizedDelivery,
} from '../ingest';
import { checksOf } from '../../workflows/rules/scoring/criteria';
import type { SignedEnv } from '../auth';
import type { AuthMiddleware } from '../middleware';
import {
  contractIdParams,
  contractViewSchema,
  deliveryRequestRef,
  deliveryRequestSchema,
  appealBody,
  disputeBody,
  revisionBody,
  emptyBody,
  voteBody,
  errorResponses,
} from '../openapi/schemas';
import { contractIdOf, existingContract, updateId } from '../contracts/requests';
import { requireStakeFunds } from '../contracts/stake-precheck';
import { createMiddleware } from 'hono/factory';
import { callerInput } from '../mandates/access';
import { HTTPException } from 'hono/http-exception';

interface MessageRoute {
  path: string;
  summary: string;
  update: UpdateDefinition<MessageReceipt, [CallerInput]>;
  /** Refuses before any Update is sent (e.g. 402 for an accept that cannot fund its stake). */
  precheck?: (ctx: ApiContext, contractId: string, caller: string) => Promise<void>;
}

const SIMPLE_MESSAGES: MessageRoute[] = [
  {
    path: 'accept',
    summary: 'Accept the contract as its Worker (posts the Worker Stake)',
    update: acceptUpdate,
    precheck: requireStakeFunds,
  },
  { path: 'decline', summary: 'Decline a direct award as its named Worker', update: declineUpdate },
  { path: 'cancel', summary: 'Cancel as the Client while the contract is `created`', update: cancelUpdate },
  {
    path: 'withdraw',
    summary: 'Withdraw as the matched Worker before the Withdrawal Deadline',
    update: withdrawUpdate,
  },
  {
    path: 'approve',
    summary: 'Approve the delivery as the Client (every criterion met)',
    update: approveUpdate,
  },
];

function ingestError(result: Extract<DeliveryIngestResult, { ok: false }>) {
  const { code, message, details } = result.error;
  return badRequest(
    message,
    { fields: details },
    code === 'malformed_json' ? 'malformed_json' : 'invalid_input',
  );
}

/** The JSON media types the body may be sent as (what @hono/zod-openapi's own gate accepts). */
const JSON_BODY = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * The delivery body's one parse: api/ingest reads and validates it (docs/protocol.md §10: a malformed body is
 * answered as such), then a body that is not sent as JSON is refused 415. The route declares the
 * body for /openapi.json only, so no JSON validator parses it a second time.
 */
const ingestDelivery = createMiddleware<{ Variables: { ingested: NormalizedDelivery } }>(async (c, next) => {
  const parsed = parseDeliveryBody(await c.req.text());
  if (!parsed.ok) throw ingestError(parsed);
  if (!JSON_BODY.test(c.req.header('Content-Type') ?? '')) {
    throw new HTTPException(415, { message: 'Unsupported Media Type' });
  }
  c.set('ingested', parsed.delivery);
  await next();
});

const messageResponses = {
  200: {
    description: 'the caller’s view after the change',
    content: { 'application/json': { schema: contractViewSchema } },
  },
  ...errorResponses(400, 401, 402, 403, 404, 409, 413, 422),
};

export function contractMessagesApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });
  for (const message of SIMPLE_MESSAGES) {
    app.openapi(
      accessRoute(auth.access.signedMutation, {
        method: 'post',
        path: `/{id}/${message.path}`,
        summary: message.summary,
        request: {
          params: contractIdParams,
          body: { content: { 'application/json': { schema: emptyBody } } },
        },
        responses: messageResponses,
      }),
      async (c) => {
        const caller = c.var.caller;
        const id = contractIdOf(c.req.valid('param').id);
        await message.precheck?.(ctx, id, caller);
        const view = await ctx.contracts.send(id, message.update, callerInput(c), updateId(c, caller));
        return c.json(viewFor(view, caller), 200);
      },
    );
  }

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{id}/disputes',
      summary:
        'Dispute the delivery as the Client (privacy-preserving, before the Review Deadline): posts the Dispute Bond and draws a panel',
      request: {
        params: contractIdParams,
        body: { content: { 'application/json': { schema: disputeBody } } },
      },
      responses: messageResponses,
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = contractIdOf(c.req.valid('param').id);
      const { claims } = c.req.valid('json');
      const input = { ...callerInput(c), ...(claims === undefined ? {} : { claims }) };
      const view = await ctx.contracts.send(id, disputeUpdate, input, updateId(c, caller));
      return c.json(viewFor(view, caller), 200);
    },
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{id}/revisions',
      summary:
        'Request changes as the Client (privacy-preserving, before the Review Deadline, at most `maxRevisions` times): the delivery goes back to the Worker with the criteria found unmet and a party-only note; the delivery deadline becomes at least `revisionWindow` away and the review deadline moves as far',
      request: {
        params: contractIdParams,
        body: { required: true, content: { 'application/json': { schema: revisionBody } } },
      },
      responses: messageResponses,
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = contractIdOf(c.req.valid('param').id);
      const { criteria, note } = c.req.valid('json');
      const input = { caller, criteria, ...(note === undefined ? {} : { note }) };
      const view = await ctx.contracts.send(id, requestChangesUpdate, input, updateId(c, caller));
      return c.json(viewFor(view, caller), 200);
    },
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{id}/appeals',
      summary:
        'Appeal a panel’s tally as the Client or the Worker, once, within the appeal window (the Appeal Bond is held; a larger panel decides finally), or waive it with `{ "waive": true }`',
      request: {
        params: contractIdParams,
        body: { content: { 'application/json': { schema: appealBody } } },
      },
      responses: messageResponses,
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = contractIdOf(c.req.valid('param').id);
      const { waive } = c.req.valid('json');
      const input = { ...callerInput(c), ...(waive === true ? { waive } : {}) };
      const view = await ctx.contracts.send(id, appealUpdate, input, updateId(c, caller));
      return c.json(viewFor(view, caller), 200);
    },
  );

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/{id}/votes',
      summary:
        'Vote as a drawn Backup Agent, once, a verdict per criterion; the vote stakes the baBond its seat holds',
      request: {
        params: contractIdParams,
        body: { required: true, content: { 'application/json': { schema: voteBody } } },
      },
      responses: messageResponses,
    }),
    async (c) => {
      const caller = c.var.caller;
      const id = contractIdOf(c.req.valid('param').id);
      const { votes } = c.req.valid('json');
      const input = { ...callerInput(c), votes };
      const view = await ctx.contracts.send(id, voteUpdate, input, updateId(c, caller));
      return c.json(viewFor(view, caller), 200);
    },
  );

  // The body the deliveries route declares by reference (and api/ingest checks).
  app.openAPIRegistry.register('Delivery', deliveryRequestSchema);
  app.openapi(
    accessRoute(
      {
        ...auth.access.signedMutation,
        middleware: [...auth.access.signedMutation.middleware, ingestDelivery],
      },
      {
        method: 'post',
        path: '/{id}/deliveries',
        summary:
          'Deliver as the matched Worker: the reference, its key (kept in the vault) and the ingest fields',
        request: {
          params: contractIdParams,
          body: { required: true, content: { 'application/json': { schema: deliveryRequestRef } } },
        },
        responses: messageResponses,
      },
    ),
    async (c) => {
      const caller = c.var.caller;
      const id = c.req.valid('param').id;
      const delivery = c.var.ingested;
      const input = { ...deliverInput(caller, delivery), ...callerInput(c) };
      const key = updateId(c, caller);
      // Criteria known and the evidence fits them: the Update first, no read before it. Its validator
      // refuses what the checks below would (a refused Update writes no history), and any refusal is
      // then answered by those checks, in their order, so the caller gets what a read first gives.
      const criteria = ctx.contracts.knownCriteria(id);
      if (
        criteria !== undefined &&
        evidenceCriteriaErrors(delivery.evidence ?? [], checksOf(criteria)).length === 0
      ) {
        let after: ContractView;
        try {
          after = await ctx.contracts.send(id, deliverUpdate, input, key);
        } catch (refused) {
          const answered = await checkedDelivery(ctx, id, delivery, input, key);
          if (answered === undefined) throw refused;
          return c.json(viewFor(answered, caller), 200);
        }
        await sealDelivery(ctx.vault, after, delivery);
        return c.json(viewFor(after, caller), 200);
      }
      const answered = await checkedDelivery(ctx, id, delivery, input, key);
      if (answered !== undefined) return c.json(viewFor(answered, caller), 200);
      const after = await ctx.contracts.send(id, deliverUpdate, input, key);
      await sealDelivery(ctx.vault, after, delivery);
      return c.json(viewFor(after, caller), 200);
    },
  );
  return app;
}

/**
 * A delivery checked against the contract's view: 404, 403 for anyone but the matched Worker, a retry
 * of the accepted delivery answered as such (sealed again), 409 (or a keyed retry's earlier answer)
 * when not `matched`, 400 for evidence that does not fit the criteria. The view that answers it, or
 * undefined when every check passed and the Update decides.
 */
async function checkedDelivery(
  ctx: ApiContext,
  id: string,
  delivery: NormalizedDelivery,
  input: DeliverInput,
  key: string | undefined,
): Promise<ContractView | undefined> {
  const view = await existingContract(ctx, id);
  if (view.worker !== input.caller || view.status === 'created') {
    throw forbidden('only the matched Worker delivers', { code: 'not_worker' }, 'not_worker');
  }
  if (isAcceptedDelivery(view, input)) {
    await sealDelivery(ctx.vault, view, delivery);
    return view;
  }
  if (view.status !== 'matched') {
    // A keyed retry of a delivery that took effect (its answer lost): the same answer, not a refusal.
    const earlier = await ctx.contracts.earlierAnswer(id, key);
    if (earlier) return earlier;
    throw conflict(
      `contract ${id} is ${view.status}: nothing to deliver`,
      { status: view.status },
      'wrong_state',
    );
  }
  const evidenceErrors = evidenceCriteriaErrors(delivery.evidence ?? [], checksOf(view.acceptanceCriteria));
  if (evidenceErrors.length > 0) throw invalidFields(evidenceErrors);
  return undefined;
}
