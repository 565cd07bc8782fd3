// Signed `app.request()` calls of the API tests (agents and bodies: test/support/fixtures.ts).
import { signRequest, type SignRequestInput } from '../../sdk/typescript/signer';
import type { App } from '../../api/app';
import assert from 'node:assert/strict';
import type { AppHarness } from '../support/service';
import {
  BA_FUNDS,
  contractBody,
  ELIGIBILITY_STAKE,
  FUNDS,
  newAgent,
  type TestAgent,
} from '../support/fixtures';

/** Answers are read loosely: the tests assert exact fields, which the types would only restate. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (e.g. malformed JSON). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Overrides of the signing (now, nonce, expiresIn, privateKey, url, method, body). */
  sign?: Partial<SignRequestInput>;
  unsigned?: boolean;
  /** The client's IP address as the server would see it (app.request() has no socket otherwise). */
  from?: string;
}

/** The bindings @hono/node-server gives a request from `ip` (what api/http/rate-limit.ts clientAddress reads). */
export const fromAddress = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } });

/** A request through the app, signed by `agent` unless `unsigned`. */
export async function call(
  app: App,
  agent: TestAgent | undefined,
  method: string,
  path: string,
  options: CallOptions = {},
) {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const signature =
    agent === undefined || options.unsigned
      ? {}
      : signRequest({
          method,
          url: path,
          privateKey: agent.key,
          ...(body === undefined ? {} : { body }),
          ...options.sign,
        });
  const response = await app.request(
    path,
    {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...signature,
        ...options.headers,
      } as Record<string, string>,
      ...(body === undefined ? {} : { body }),
    },
    options.from === undefined ? undefined : fromAddress(options.from),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Json) : undefined,
  };
}

/** A direct contract its Worker has accepted. */
export interface Matched {
  id: string;
  client: TestAgent;
  worker: TestAgent;
}

/**
 * The Client creates a direct contract (the fixtures' body with `overrides`) and the Worker accepts it;
 * without `parties`, two new agents funded with FUNDS each.
 */
export async function matchedContract(
  h: AppHarness,
  parties?: { client: TestAgent; worker: TestAgent },
  overrides: Record<string, unknown> = {},
): Promise<Matched> {
  const { client, worker } = parties ?? { client: newAgent(), worker: newAgent() };
  if (!parties) {
    await h.fund(client.address, FUNDS);
    await h.fund(worker.address, FUNDS);
  }
  const created = await call(h.app, client, 'POST', '/contracts', {
    body: contractBody(worker.address, overrides),
  });
  assert.equal(created.status, 201, created.text);
  const id: string = created.json.contractId;
  const accepted = await call(h.app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
  assert.equal(accepted.status, 200, accepted.text);
  return { id, client, worker };
}

/** `count` new agents funded with BA_FUNDS, each holding the BA Eligibility Stake (the draw can seat them). */
export async function eligibleAgents(h: AppHarness, count: number): Promise<TestAgent[]> {
  const agents = Array.from({ length: count }, newAgent);
  for (const agent of agents) {
    await h.fund(agent.address, BA_FUNDS);
    const locked = await call(h.app, agent, 'POST', '/eligibility/lock', {
      body: { amount: ELIGIBILITY_STAKE.toString() },
    });
    assert.equal(locked.status, 200, locked.text);
  }
  return agents;
}
