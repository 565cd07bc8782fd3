// Hono middleware: refuses with 401 any request not signed as docs/security.md says, and exposes the caller's
// address as `c.var.caller` to the handlers after it.
import { createMiddleware } from 'hono/factory';
import { errorBody } from '../errors';
import type { Address } from './ethereum';
import type { NonceStore } from '../../store/nonces/sqlite';
import { verifyRequest } from './verify';

export interface SignedVariables {
  /** The lowercase address that signed the request. */
  caller: Address;
}
export type SignedEnv = { Variables: SignedVariables };

export interface RequireSignatureOptions {
  nonces: NonceStore;
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
}

export function requireSignature({ nonces, now = Date.now }: RequireSignatureOptions) {
  return createMiddleware<SignedEnv>(async (c, next) => {
    // Hono caches the body, so validators and handlers after this can still read text()/json().
    const body = new Uint8Array(await c.req.arrayBuffer());
    const result = await verifyRequest(
      { method: c.req.method, url: c.req.url, headers: c.req.raw.headers, body },
      { nonces, now: now() },
    );
    if (!result.ok) return c.json(errorBody('unauthorized', result.message, { reason: result.reason }), 401);
    c.set('caller', result.caller);
    await next();
  });
}
