// `Idempotency-Key` for mutating routes (docs/security.md): the first answer to a key is saved
// and a repeat gets it again without a second effect; the same key with another request is 422.
// A key is reserved before the handler runs, so two concurrent identical requests never both run:
// the second gets 409 `idempotency_in_progress` (Retry-After: 1) and, retried, the saved answer.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { createHash } from 'node:crypto';
import { errorBody } from '../errors';
import type { IdempotencyScope, IdempotencyStore } from '../../store/idempotency';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What makes two uses of a key "the same request": its query string and its body bytes. */
export function requestHash(query: string, body: Uint8Array): string {
  return createHash('sha256').update(query).update('\0').update(body).digest('hex');
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /**
   * Who owns the keys of this route; defaults to the signed caller (`c.var.caller`, so place the
   * middleware after requireSignature). Give one for unsigned routes, e.g. `() => 'operator'`.
   */
  scope?: (c: Context) => string | undefined;
}

function refusal(
  status: 400 | 409 | 422,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function idempotency({
  store,
  scope = (c) => c.get('caller') as string | undefined,
}: IdempotencyOptions) {
  return createMiddleware(async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !MUTATING_METHODS.has(c.req.method)) return next();
    if (!KEY_PATTERN.test(key)) {
      return refusal(400, 'bad_request', `${IDEMPOTENCY_HEADER} must be 1-255 visible ASCII characters`);
    }
    const caller = scope(c);
    if (caller === undefined)
      throw new Error('idempotency middleware needs a caller: place it after requireSignature');

    const url = new URL(c.req.url);
    const id: IdempotencyScope = { caller, method: c.req.method, path: url.pathname, key };
    const body = new Uint8Array(await c.req.arrayBuffer());
    const reservation = await store.reserve(id, requestHash(url.search, body));
    switch (reservation.kind) {
      case 'mismatch':
        return refusal(
          422,
          'idempotency_key_reused',
          `${IDEMPOTENCY_HEADER} was already used with another request`,
        );
      case 'in_progress':
        return refusal(
          409,
          'idempotency_in_progress',
          `a request with this ${IDEMPOTENCY_HEADER} is in progress`,
          {
            'Retry-After': '1',
          },
        );
      case 'replay': {
        const { status, contentType, body: saved } = reservation.answer;
        const headers: Record<string, string> = { [REPLAYED_HEADER]: 'true' };
        if (contentType) headers['Content-Type'] = contentType;
        return new Response(saved.length > 0 ? saved : null, { status, headers });
      }
      case 'reserved':
        break;
    }

    try {
      await next();
    } catch (err) {
      await store.release(id);
      throw err;
    }
    // A 5xx is no definite answer (the effect may not have happened): free the key for a retry;
    // the effects behind the API are idempotent themselves (Temporal update IDs, ledger keys).
    if (c.res.status >= 500) {
      await store.release(id);
      return;
    }
    const answer = new Uint8Array(await c.res.clone().arrayBuffer());
    await store.complete(id, {
      status: c.res.status,
      contentType: c.res.headers.get('Content-Type'),
      body: answer,
    });
  });
}
