// The HTTP API (docs/api.md): one OpenAPI sub-app per resource, one error mapping, the
// OpenAPI document at /openapi.json and a docs page at /docs. Everything it touches is injected.
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { createContractGateway } from './contract-gateway';
import { DEFAULT_EVENT_STREAM, type ApiContext, type AppDeps } from './deps';
import { mapError } from './error-mapping';
import { errorBody, validationHook } from './errors';
import { authMiddleware } from './middleware';
import { notOnOpenPanel } from './panel-check';
import { addressLimit, DEFAULT_RATE_LIMITS, MemoryRateLimitStore } from './rate-limit';
import { MemoryStreamSlots } from './stream-caps';
import { agentsApp } from './routes/agents';
import { contractMessagesApp } from './routes/contract-messages';
import { contractCreationApp, contractsApp } from './routes/contracts';
import { deliveryContentApp } from './routes/delivery-content';
import { eventStreamApp } from './routes/event-stream';
import { keysApp } from './routes/keys';
import { quotesApp } from './routes/quotes';
import { eligibilityApp } from './routes/eligibility';
import { operatorApp } from './routes/operator';
import { stuckOperatorApp } from './routes/operator-stuck';
import { createStuckOperations } from './stuck-operations';
import { paramsApp } from './routes/params';
import { payoutsOperatorApp, withdrawalsApp } from './routes/withdrawals';
import { docsPage, healthApp } from './routes/system';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const API_VERSION = '1.0.0';

const OPENAPI_CONFIG = {
  openapi: '3.0.3',
  info: {
    title: 'OpenContract API',
    version: API_VERSION,
    description:
      'Escrowed Working Contracts between AI agents. Signed routes carry an HTTP Message Signature (RFC 9421, label sig1) signed as an EIP-191 message; see docs/security.md.',
  },
  security: [{ httpSignature: [] }],
};

export type { AppDeps } from './deps';

export function createApp(deps: AppDeps) {
  const ctx: ApiContext = {
    contracts: createContractGateway({
      client: deps.temporal,
      taskQueue: deps.taskQueue,
      records: deps.records,
    }),
    stuck: createStuckOperations({ client: deps.temporal, ledger: deps.ledger, records: deps.records }),
    ledger: deps.ledger,
    vault: deps.vault,
    nonces: deps.nonces,
    idempotency: deps.idempotency,
    payouts: deps.payouts,
    params: deps.params,
    operatorToken: deps.operatorToken,
    now: deps.now ?? Date.now,
    eligibilityUnlockCheck: deps.eligibilityUnlockCheck ?? notOnOpenPanel(deps.ledger),
    eventStream: { ...DEFAULT_EVENT_STREAM, ...deps.eventStream },
    limits: {
      settings: { ...DEFAULT_RATE_LIMITS, ...deps.limits?.settings },
      store: deps.limits?.store ?? new MemoryRateLimitStore(),
      streams: deps.limits?.streams ?? new MemoryStreamSlots(),
    },
  };
  const logError = deps.logError ?? ((err: unknown) => console.error('unexpected API error', err));
  const auth = authMiddleware(ctx);
  const app = new OpenAPIHono({ defaultHook: validationHook });

  // First of all: a refused request costs no more than a bucket lookup.
  app.use('*', addressLimit({ ...ctx.limits, now: ctx.now }));
  // Before any signature check: requireSignature reads the whole body to digest it.
  const maxSize = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  app.use(
    '*',
    bodyLimit({
      maxSize,
      onError: (c) =>
        c.json(errorBody('payload_too_large', `the body must be at most ${maxSize} bytes`), 413),
    }),
  );

  app.route('/contracts', contractCreationApp(ctx, auth));
  app.route('/contracts', contractsApp(ctx, auth));
  app.route('/contracts', contractMessagesApp(ctx, auth));
  app.route('/contracts', quotesApp(ctx, auth));
  app.route('/contracts', keysApp(ctx, auth));
  app.route('/contracts', deliveryContentApp(ctx, auth));
  app.route('/contracts', eventStreamApp(ctx, auth));
  app.route('/agents', agentsApp(ctx, auth));
  app.route('/agents', withdrawalsApp(ctx, auth));
  app.route('/params', paramsApp(ctx));
  app.route('/eligibility', eligibilityApp(ctx, auth));
  app.route('/operator', operatorApp(ctx, auth));
  app.route('/operator', stuckOperatorApp(ctx, auth));
  app.route('/operator/payouts', payoutsOperatorApp(ctx, auth));
  app.route('/health', healthApp(ctx));

  app.openAPIRegistry.registerComponent('securitySchemes', 'httpSignature', {
    type: 'apiKey',
    in: 'header',
    name: 'Signature',
    description: 'RFC 9421 Signature + Signature-Input (+ Content-Digest), EIP-191 over the signature base',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
  });
  app.doc('/openapi.json', OPENAPI_CONFIG);
  app.get('/docs', (c) => c.html(docsPage(app.getOpenAPIDocument(OPENAPI_CONFIG))));

  app.notFound((c) => c.json(errorBody('not_found', `no route ${c.req.method} ${c.req.path}`), 404));
  app.onError((err, c) => {
    const { status, body } = mapError(err);
    if (status >= 500 && status !== 503) logError(err);
    return c.json(body, status as 400);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
