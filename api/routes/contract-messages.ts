// The messages that change a contract (accept, decline, cancel, withdraw, deliveries, approve): each
// is sent to the contract's workflow as an Update, whose validator answers at once (SPEC §12); the
// answer is the caller's view after the change. Roles and states are the workflow's to check, except
// for a delivery, whose role and state are checked here first so its key reaches the vault only from
// the matched Worker of a contract awaiting delivery.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { UpdateDefinition } from '@temporalio/common';
import {
  acceptUpdate,
  approveUpdate,
  cancelUpdate,
  declineUpdate,
  deliverUpdate,
  withdrawUpdate,
  type CallerInput,
  type ContractView,
  type DeliverInput,
} from '../../workflows/definitions';
import { isContractId, keyToken } from '../contract-ids';
import { viewFor } from '../contract-views';
import type { ApiContext } from '../deps';
import { badRequest, conflict, forbidden, notFound, validationHook } from '../errors';
import { IDEMPOTENCY_HEADER } from '../idempotency';
import { contentSha256, parseDeliveryBody, type DeliveryIngestResult } from '../ingest';
import type { AuthMiddleware, MaybeSignedEnv } from '../middleware';
import {
  contractIdParams,
  contractViewSchema,
  deliveryRequestSchema,
  emptyBody,
  errorResponses,
} from '../schemas';
import { existingContract } from './contracts';
import { reply } from './respond';
import type { Context } from 'hono';

interface MessageRoute {
  path: string;
  summary: string;
  update: UpdateDefinition<ContractView, [CallerInput]>;
}

const SIMPLE_MESSAGES: MessageRoute[] = [
  {
    path: 'accept',
    summary: 'Accept the contract as its Worker (posts the Worker Stake)',
    update: acceptUpdate,
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

/**
 * With an Idempotency-Key the Update gets an ID derived from it, so a retry after a lost answer
 * (a 5xx frees the key) reaches Temporal as the same Update and takes effect once.
 */
function updateId(c: Context, caller: string): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  return key === undefined ? undefined : `api-${keyToken(caller, c.req.method, c.req.path, key)}`;
}

function ingestError(result: Extract<DeliveryIngestResult, { ok: false }>) {
  const { code, message, details } = result.error;
  return badRequest(
    message,
    { fields: details },
    code === 'malformed_json' ? 'malformed_json' : 'invalid_input',
  );
}

const messageResponses = {
  200: {
    description: 'the caller’s view after the change',
    content: { 'application/json': { schema: contractViewSchema } },
  },
  ...errorResponses(400, 401, 402, 403, 404, 409, 413, 422),
};

export function registerMessageRoutes(
  app: OpenAPIHono<MaybeSignedEnv>,
  ctx: ApiContext,
  auth: AuthMiddleware,
): void {
  for (const message of SIMPLE_MESSAGES) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/{id}/${message.path}`,
        summary: message.summary,
        middleware: [...auth.signedMutation],
        request: {
          params: contractIdParams,
          body: { content: { 'application/json': { schema: emptyBody } } },
        },
        responses: messageResponses,
      }),
      async (c) => {
        const caller = c.var.caller!;
        const id = c.req.param('id');
        if (!isContractId(id)) throw notFound(`no contract ${id}`, undefined, 'contract_not_found');
        const view = await ctx.contracts.send(id, message.update, { caller }, updateId(c, caller));
        return reply(c, viewFor(view, caller));
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/{id}/deliveries',
      summary:
        'Deliver as the matched Worker: the reference, its key (kept in the vault) and the ingest fields',
      middleware: [...auth.signedMutation],
      request: {
        params: contractIdParams,
        body: { required: true, content: { 'application/json': { schema: deliveryRequestSchema } } },
      },
      responses: messageResponses,
    }),
    async (c) => {
      const caller = c.var.caller!;
      const id = c.req.param('id');
      const parsed = parseDeliveryBody(await c.req.text());
      if (!parsed.ok) throw ingestError(parsed);
      const view = await existingContract(ctx, id);
      if (view.worker !== caller || view.status === 'created') {
        throw forbidden('only the matched Worker delivers', { code: 'not_worker' }, 'not_worker');
      }
      if (view.status !== 'matched') {
        throw conflict(
          `contract ${id} is ${view.status}: nothing to deliver`,
          { status: view.status },
          'wrong_state',
        );
      }
      const { delivery } = parsed;
      await ctx.vault.put(id, 'delivery', delivery.key);
      const input: DeliverInput = {
        caller,
        uri: delivery.ref.uri,
        sha256: delivery.ref.sha256,
        contentHash: contentSha256(delivery.content),
        ...(delivery.confidence === undefined ? {} : { confidence: delivery.confidence }),
        ...(delivery.evidence === undefined ? {} : { evidence: delivery.evidence }),
      };
      const after = await ctx.contracts.send(id, deliverUpdate, input, updateId(c, caller));
      return reply(c, viewFor(after, caller));
    },
    // The schema documents the body; api/ingest's messages answer a failure.
    (result, c) =>
      result.success
        ? undefined
        : (async (): Promise<never> => {
            const parsed = parseDeliveryBody(await c.req.text());
            if (!parsed.ok) throw ingestError(parsed);
            validationHook(result);
            throw new Error('unreachable: the schema refused a body the ingest accepts');
          })(),
  );
}
