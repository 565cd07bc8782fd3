// The HTTP API (docs/api.md): one OpenAPI sub-app per resource, one error mapping, the
// OpenAPI document at /openapi.json and a docs page at /docs. Everything it touches is injected.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { codecServerApp } from './operator/codec-server';
import { mandateScoped } from './mandates/scope';
import { mandatesApp } from './routes/mandates';
import { agentOwner } from '../store/ledger';
import { createContractGateway, type ContractGateway } from './contracts/gateway';
import {
  DEFAULT_EVENT_STREAM,
  type AgentFeedContext,
  type AgentFeedDeps,
  type ApiContext,
  type AppDeps,
} from './deps';
import { mapError } from './errors/mapping';
import { jsonDepthLimit } from './http/json-depth';
import { errorBody, validationHook } from './errors';
import { authMiddleware } from './middleware';
import { ticketKey } from './auth/agent-ticket';
import { addressLimit, DEFAULT_RATE_LIMITS, MemoryRateLimitStore } from './http/rate-limit';
import { clientAddressMiddleware, NO_TRUSTED_PROXIES } from './http/client-address';
import { MemoryStreamSlots } from './http/stream-caps';
import { agentsApp } from './routes/agents';
import { agentFeedApp } from './routes/agent-feed';
import { outcomesApp, reputationApp, type OutcomeDeps } from './routes/outcomes';
import { ReputationIndex } from '../store/outcomes/reputation-index';
import { webhooksApp } from './routes/webhooks';
import { webhookWorkflows } from '../webhooks/delivery-workflows';
import { contractMessagesApp } from './routes/contract-messages';
import { contractCreationApp, contractsApp } from './routes/contracts';
import { deliveryContentApp } from './routes/delivery-content';
import { eventStreamApp } from './routes/event-stream';
import { keysApp } from './routes/keys';
import { quotesApp } from './routes/quotes';
import { eligibilityApp } from './routes/eligibility';
import { operatorApp } from './routes/operator';
import { stuckOperatorApp } from './routes/operator-stuck';
import { createStuckOperations } from './operator/stuck-operations';
import { SIGNATURE_EXTENSION, SIGNING_GUIDE_PATH } from './http/route-access';
import { withFieldDocs } from './openapi/fields';
import { paramsApp } from './routes/params';
import { payoutsOperatorApp, withdrawalsApp } from './routes/withdrawals';
import { docsPage, healthApp } from './routes/system';
import { signingGuideApp } from './routes/signing-guide';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const API_VERSION = '1.0.0';

const OPENAPI_CONFIG = {
  openapi: '3.1.0',
  info: {
    title: 'OpenContract API',
    version: API_VERSION,
    description: [
      'Escrowed Working Contracts between AI agents.',
      `Signed routes (\`${SIGNATURE_EXTENSION}: required\`, or \`optional\` where a signature changes the answer) carry an HTTP Message Signature (RFC 9421, label sig1) signed with the agent's secp256k1 key as an EIP-191 message: the headers Signature-Input, Signature and, with a body, Content-Digest, declared on each such route. The signing guide, with a worked example, is served at ${SIGNING_GUIDE_PATH}; test vectors at ${SIGNING_GUIDE_PATH}/vectors.json.`,
      'Mutating routes take an optional Idempotency-Key. Amounts are decimal strings of minor units (6 decimals). Timestamps are RFC 3339: accepted with any offset, answered in UTC with a Z suffix. Every refusal is `{ "error": { "code", "message", "details"? } }`.',
    ].join('\n\n'),
  },
};

export type { AppDeps } from './deps';

/**
 * The gateway that tells the feed of every contract it starts or messages (a refused message too: the
 * log may record it), so the projector looks at it soon. A touch that fails is logged and changes no
 * answer: the message's outcome stands, and the feed's sweep finds the contract later.
 */
function touchingFeed(
  gateway: ContractGateway,
  feed: AgentFeedDeps | undefined,
  logError: (err: unknown) => void,
): ContractGateway {
  if (feed === undefined) return gateway;
  const touched = async <T>(contractId: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } finally {
      await feed.touch(contractId).catch(logError);
    }
  };
  return {
    ...gateway,
    create: (input, summary) => touched(input.contractId, () => gateway.create(input, summary)),
    send: (contractId, update, arg, updateId) =>
      touched(contractId, () => gateway.send(contractId, update, arg, updateId)),
  };
}

function feedContext(deps: AppDeps): AgentFeedContext | undefined {
  if (deps.feed === undefined) return undefined;
  return {
    ...deps.feed,
    webhooks: webhookWorkflows({
      client: deps.temporal,
      taskQueue: deps.taskQueue,
      store: deps.feed.store,
      ...(deps.feed.webhookMaxRetryIntervalMs === undefined
        ? {}
        : { maxRetryIntervalMs: deps.feed.webhookMaxRetryIntervalMs }),
    }),
  };
}

export function createApp(deps: AppDeps) {
  const logError = deps.logError ?? ((err: unknown) => console.error('unexpected API error', err));
  const ctx: ApiContext = {
    contracts: mandateScoped(
      touchingFeed(
        createContractGateway({
          client: deps.temporal,
          taskQueue: deps.taskQueue,
          records: deps.records,
          cursorKey: deps.cursorKey,
        }),
        deps.feed,
        logError,
      ),
      deps.ledger,
    ),
    feed: feedContext(deps),
    stuck: createStuckOperations({ client: deps.temporal, ledger: deps.ledger, records: deps.records }),
    ledger: deps.ledger,
    vault: deps.vault,
    nonces: deps.nonces,
    idempotency: deps.idempotency,
    payouts: deps.payouts,
    params: deps.params,
    operatorToken: deps.operatorToken,
    now: deps.now ?? Date.now,
    eventStream: { ...DEFAULT_EVENT_STREAM, ...deps.eventStream },
    limits: {
      settings: { ...DEFAULT_RATE_LIMITS, ...deps.limits?.settings },
      store: deps.limits?.store ?? new MemoryRateLimitStore(),
      streams: deps.limits?.streams ?? new MemoryStreamSlots(),
      atStake: async (agent: string) =>
        (await deps.ledger.balances(agentOwner(agent))).USDC.held >= deps.params.minWorkerStake,
      ticketKey: ticketKey(deps.cursorKey),
    },
  };
  const auth = authMiddleware(ctx);
  const app = new OpenAPIHono({ defaultHook: validationHook });

  // First of all: whose address this is (the peer, or the client a trusted proxy forwarded), then a
  // refused request costs no more than a bucket lookup.
  app.use('*', clientAddressMiddleware(deps.trustedProxies ?? NO_TRUSTED_PROXIES));
  app.use('*', addressLimit({ ...ctx.limits, now: ctx.now }));
  // Before any signature check: requireSignature reads the whole body to digest it.
  const maxSize = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const apiBodyLimit = bodyLimit({
    maxSize,
    onError: (c) => c.json(errorBody('payload_too_large', `the body must be at most ${maxSize} bytes`), 413),
  });
  // The codec server carries whole Temporal payloads and checks its caller before its own, larger limit.
  app.use('*', (c, next) => (c.req.path.startsWith('/codec/') ? next() : apiBodyLimit(c, next)));

  app.use('*', jsonDepthLimit);

  app.route('/contracts', contractCreationApp(ctx, auth));
  app.route('/contracts', contractsApp(ctx, auth));
  app.route('/contracts', contractMessagesApp(ctx, auth));
  app.route('/contracts', quotesApp(ctx, auth));
  app.route('/contracts', keysApp(ctx, auth));
  app.route('/contracts', deliveryContentApp(ctx, auth));
  app.route('/contracts', eventStreamApp(ctx, auth));
  app.route('/agents', agentsApp(ctx, auth));
  app.route('/agents', withdrawalsApp(ctx, auth));
  app.route('/agents', mandatesApp(ctx, auth));
  const outcomes: OutcomeDeps | undefined =
    deps.outcomes === undefined
      ? undefined
      : {
          log: deps.outcomes.log,
          index: new ReputationIndex(deps.outcomes.log),
          trustAnchors: deps.outcomes.trustAnchors ?? [],
        };
  app.route('/agents', reputationApp(outcomes, auth));
  app.route('/outcomes', outcomesApp(outcomes));
  if (ctx.feed !== undefined) {
    app.route('/agents', agentFeedApp(ctx, ctx.feed, auth));
    app.route('/agents', webhooksApp(ctx.feed, auth, ctx.now));
  }
  app.route('/params', paramsApp(ctx));
  app.route('/eligibility', eligibilityApp(ctx, auth));
  app.route('/operator', operatorApp(ctx, auth));
  app.route('/operator', stuckOperatorApp(ctx, auth));
  app.route('/operator/payouts', payoutsOperatorApp(ctx, auth));
  app.route('/health', healthApp(ctx));
  if (deps.codecServer) app.route('/codec', codecServerApp(deps.codecServer, ctx.operatorToken));

  // Request signatures have no OpenAPI security scheme that says what they are: each signed route
  // declares its headers instead (api/http/route-access.ts). The operator's token is a bearer token.
  app.openAPIRegistry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (setting OPERATOR_TOKEN), for /operator routes only',
  });
  // Built on first read, once every route is registered; fields described from the vocabulary.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  const published = () => (document ??= withFieldDocs(app.getOpenAPI31Document(OPENAPI_CONFIG)));
  app.get('/openapi.json', (c) => c.json(published()));
  app.route('/', signingGuideApp());
  app.get('/docs', (c) => c.html(docsPage(published())));

  app.notFound((c) => c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => {
    const { status, body } = mapError(err);
    if (status >= 500 && status !== 503) logError(err);
    return c.json(body, status as 400);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
