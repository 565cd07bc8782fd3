// Signed `app.request()` calls of the API tests (agents and bodies: test/support/fixtures.ts).
import { signRequest, type SignRequestInput } from '../../api/sdk/signer';
import type { App } from '../../api/app';
import type { TestAgent } from '../support/fixtures';

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
