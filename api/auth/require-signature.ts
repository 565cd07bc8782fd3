// Hono middleware: refuses with 401 any request not signed as docs/security.md says, and exposes the caller's
// address as `c.var.caller` to the handlers after it.
import { createMiddleware } from 'hono/factory';
import { errorBody } from '../errors';
import type { Address } from './ethereum';
import type { NonceStore } from '../../store/nonces/sqlite';
import { verifyRequest } from './verify';
import { mintTicket, TICKET_HEADER } from './agent-ticket';

export interface SignedVariables {
  /** The lowercase address that signed the request. */
  caller: Address;
}
export type SignedEnv = { Variables: SignedVariables };

export interface RequireSignatureOptions {
  nonces: NonceStore;
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /** When given, the answer to a verified request carries a fresh ticket for its signer (./agent-ticket.ts). */
  ticketKey?: Buffer;
}

export function requireSignature({ nonces, now = Date.now, ticketKey }: RequireSignatureOptions) {
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
    // After the route: an answer it built as a whole Response keeps the header too.
    if (ticketKey !== undefined) c.header(TICKET_HEADER, mintTicket(ticketKey, result.caller, now()));
  });
}
