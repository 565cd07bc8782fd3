// /contracts: create, list (Temporal visibility), read (public or party view), events, votes. The
// other /contracts routes are sub-apps of their own (messages, quotes, keys, delivery, event stream),
// routed beside this one by api/app.ts.
import { OpenAPIHono } from '@hono/zod-openapi';
import { accessRoute, PUBLIC_ACCESS } from '../http/route-access';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { agentOwner } from '../../store/ledger';
import type { ContractView } from '../../workflows/definitions';
import { CONTRACT_CODES } from '../../workflows/rules/contract-kinds';
import { contractBodyErrors, createContractBodySchema } from '../../workflows/rules/contract-body';
import { checkContractBody } from '../../workflows/rules/contract-terms';
import { contractInput, contractSummary } from '../contracts/input';
import { callerInput } from '../mandates/access';
import { contractIdForKey, randomContractId } from '../contracts/ids';
import { partyView, viewFor } from '../contracts/views';
import { existingContract, fromContract } from '../contracts/requests';
import type { ApiContext } from '../deps';
import { conflict, insufficientFunds, invalidFields, validationHook } from '../errors';
import { IDEMPOTENCY_HEADER } from '../http/idempotency';
import type { SignedEnv } from '../auth';
import type { AuthMiddleware, MaybeSignedEnv } from '../middleware';
import {
  contractIdParams,
  contractListSchema,
  contractViewSchema,
  errorResponses,
  eventsSchema,
  json,
  contractVoteRowsSchema,
  listQuerySchema,
  partyViewSchema,
} from '../openapi/schemas';
import { eventsVisibleTo } from '../contracts/event-privacy';

function codesFor(filter: { awardMethod?: string; contractType?: string }): string[] {
  return CONTRACT_CODES.filter(
    (code) =>
      (filter.contractType === undefined || code[0] === filter.contractType[0]!.toUpperCase()) &&
      (filter.awardMethod === undefined || code[1] === filter.awardMethod[0]!.toUpperCase()),
  );
}

/** The caller's contract under this id, once its escrow is decided (the `created` Update only reads). */
async function callersContract(ctx: ApiContext, contractId: string, caller: string) {
  const existing = await ctx.contracts.created(contractId);
  return existing?.client === caller ? existing : undefined;
}

/** POST /contracts: signed, so its own sub-app (the caller is always there). */
export function contractCreationApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<SignedEnv>({ defaultHook: validationHook });

  app.openapi(
    accessRoute(auth.access.signedMutation, {
      method: 'post',
      path: '/',
      summary: 'Create a contract (the caller is the Client); its escrow is held before the answer',
      request: {
        body: { required: true, content: { 'application/json': { schema: createContractBodySchema } } },
      },
      responses: {
        201: json(partyViewSchema, 'created: the Client’s view'),
        ...errorResponses(400, 401, 402, 409, 413, 422),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      const result = checkContractBody(c.req.valid('json'), ctx.now(), caller);
      if (!result.ok) throw invalidFields(result.errors);
      const terms = result.terms;

      const key = c.req.header(IDEMPOTENCY_HEADER);
      const contractId = key === undefined ? randomContractId() : contractIdForKey(caller, key);
      const { USDC } = await ctx.ledger.balances(agentOwner(caller));
      if (USDC.available < terms.amount) {
        // A keyed retry whose first attempt succeeded (its answer lost) finds its contract: that
        // contract's escrow is what the balance no longer covers.
        const existing = key === undefined ? undefined : await callersContract(ctx, contractId, caller);
        if (existing) return c.json(partyView(existing, 'client'), 201);
        throw insufficientFunds(
          `the Client has ${USDC.available} USDC available, the escrow needs ${terms.amount}`,
          {
            available: USDC.available.toString(),
            needed: terms.amount.toString(),
          },
        );
      }
      const materials = terms.supplementaryMaterials;
      if (materials) await ctx.vault.put(contractId, 'materials', materials.key);
      const { delegation } = callerInput(c);
      const input = {
        ...contractInput(contractId, terms, ctx.params),
        ...(delegation ? { delegation } : {}),
      };
      let view: ContractView;
      try {
        view = await ctx.contracts.create(input, contractSummary(contractId, terms));
      } catch (err) {
        // A retry (after a lost answer) of a keyed creation: the contract already exists, answer it.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError) || key === undefined) throw err;
        const existing = await callersContract(ctx, contractId, caller);
        if (!existing) throw err;
        view = existing;
      }
      return c.json(partyView(view, 'client'), 201);
    },
    // The schema's failures name their fields as the creation rules do ('(body)' for the whole body).
    (result) => {
      if (!result.success) throw invalidFields(contractBodyErrors(result.error));
    },
  );
  return app;
}

/** The reads of /contracts: public, or party views when signed. */
export function contractsApp(ctx: ApiContext, auth: AuthMiddleware) {
  const app = new OpenAPIHono<MaybeSignedEnv>({ defaultHook: validationHook });

  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/',
      // Public: no signature needed.
      summary:
        'List contracts: open ones from Temporal visibility, closed ones from their records (default: open tenders still to be matched)',
      request: { query: listQuerySchema },
      responses: {
        200: json(
          contractListSchema,
          'matching contracts: open ones newest first, then closed ones newest closed first',
        ),
        ...errorResponses(400, 503),
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const none = q.status === undefined && q.awardMethod === undefined && q.contractType === undefined;
      const filter = none ? { status: 'created', awardMethod: 'open' } : q;
      const page = await ctx.contracts.list({
        ...(filter.status === undefined ? {} : { status: filter.status }),
        ...(filter.awardMethod === undefined && q.contractType === undefined
          ? {}
          : { contractCodes: codesFor(filter) }),
        limit: q.limit ?? 50,
        ...(q.cursor === undefined ? {} : { cursor: q.cursor }),
      });
      return c.json(page, 200);
    },
  );

  app.openapi(
    accessRoute(auth.access.optionallySigned, {
      method: 'get',
      path: '/{id}',
      // Optional: unsigned callers get the public view, signed parties their own.
      summary: 'Read a contract: the public view, or the party view when signed by a party',
      request: { params: contractIdParams },
      responses: { 200: json(contractViewSchema, 'the view for the caller'), ...errorResponses(401, 404) },
    }),
    async (c) => c.json(viewFor(await existingContract(ctx, c.req.valid('param').id), c.var.caller), 200),
  );

  app.openapi(
    accessRoute(auth.access.optionallySigned, {
      method: 'get',
      path: '/{id}/events',
      // Optional: a party's signature gets the log with addresses; anyone else gets roles instead.
      summary: 'The content-free event log of a contract (addresses only for its parties)',
      request: { params: contractIdParams },
      responses: { 200: json(eventsSchema, 'events, oldest first'), ...errorResponses(401, 404) },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const visible = eventsVisibleTo(await existingContract(ctx, id), c.var.caller);
      return c.json({ contractId: id, events: visible(await ctx.contracts.eventLog(id)) }, 200);
    },
  );

  app.openapi(
    accessRoute(PUBLIC_ACCESS, {
      method: 'get',
      path: '/{id}/votes',
      // Public: no signature needed.
      summary:
        'The vote rows of the contract’s panel after the tally (409 while a drawn panel votes; empty without a panel)',
      request: { params: contractIdParams },
      responses: {
        200: json(contractVoteRowsSchema, 'one row per (BA, criterion)'),
        ...errorResponses(404, 409),
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      const votes = await fromContract(id, (contractId) => ctx.contracts.votes(contractId));
      if (votes.sealed) throw conflict('votes are sealed until the tally', undefined, 'votes_sealed');
      return c.json({ contractId: id, rows: votes.rows }, 200);
    },
  );
  return app;
}
