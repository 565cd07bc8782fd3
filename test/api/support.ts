// Helpers of the API tests: agents with keys, signed `app.request()` calls, a valid contract body.
import {
  randomPrivateKey,
  addressFromPrivateKey,
  signRequest,
  type SignRequestInput,
} from '../../api/sdk/signer';
import type { App } from '../../api/app';

export interface TestAgent {
  key: string;
  address: string;
}

export function newAgent(): TestAgent {
  const key = randomPrivateKey();
  return { key, address: addressFromPrivateKey(key) };
}

export const HOUR = 3_600_000;

/** A valid FDP (direct, fixed price) body; `overrides` replace top-level fields. */
export function contractBody(
  worker: string | undefined,
  overrides: Record<string, unknown> = {},
  now = Date.now(),
) {
  const at = (h: number) => new Date(now + h * HOUR).toISOString();
  return {
    contractType: 'fixed',
    awardMethod: worker === undefined ? 'open' : 'direct',
    ...(worker === undefined ? { verificationMode: 'privacy-preserving' } : { worker }),
    taskDescription: 'Summarize the attached report in 200 words.',
    acceptanceCriteria: ['at most 200 words', 'mentions every section'],
    amount: '2500000',
    deadlines: { match: at(1), withdrawal: at(2), delivery: at(3), review: at(4) },
    ...overrides,
  };
}

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
}

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
  const response = await app.request(path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...signature,
      ...options.headers,
    } as Record<string, string>,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Json) : undefined,
  };
}
