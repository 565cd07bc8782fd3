// The authentication chains of the routes (docs/api.md "Who may call what").
import type { MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { createMiddleware } from 'hono/factory';
import { requireOperatorToken, requireSignature, type Address, type SignedEnv } from './auth';
import type { ApiContext } from './deps';
import { idempotency } from './http/idempotency';
import { actingParty } from './mandates/access';
import { agentLimit } from './http/rate-limit';
import { PUBLIC_ACCESS, type Access, type Middleware } from './http/route-access';

export type MaybeSignedEnv = { Variables: { caller?: Address } };

export function authMiddleware(ctx: ApiContext) {
  // The verified signer spends a token of its bucket before the route does anything. Typed as
  // what it guarantees: a route behind it reads `c.var.caller` as an Address, never undefined.
  // A delegate's request is charged to the delegate, then acts as its owner (api/mandates/access.ts).
  const signed = every(
    requireSignature({ nonces: ctx.nonces, now: ctx.now, ticketKey: ctx.limits.ticketKey }),
    agentLimit({ ...ctx.limits, now: ctx.now }),
    actingParty({ mandates: () => ctx.ledger.mandates, now: ctx.now }),
  ) as MiddlewareHandler<SignedEnv>;
  const keyed = idempotency({ store: ctx.idempotency });
  const chains = {
    /** Reads that need the caller: keys, balances. */
    signed,
    /** Every signed mutating route: signature first, then the Idempotency-Key. */
    signedMutation: [signed, keyed] as const,
    /**
     * Public reads whose answer depends on who asks (GET /contracts/:id): no signature headers →
     * anonymous; signature headers present → verified like any signed request (401 if bad).
     */
    optionallySigned: createMiddleware<MaybeSignedEnv>(async (c, next) => {
      if (c.req.header('Signature-Input') === undefined && c.req.header('Signature') === undefined) {
        return next();
      }
      return (signed as MiddlewareHandler<MaybeSignedEnv>)(c, next);
    }),
    operator: [
      requireOperatorToken(ctx.operatorToken),
      idempotency({ store: ctx.idempotency, scope: () => 'operator' }),
    ] as const,
  };
  const operatorToken = chains.operator[0];
  /** What routes declare with accessRoute (api/http/route-access.ts): a chain and what it reads and refuses. */
  const access = {
    public: PUBLIC_ACCESS,
    signed: { kind: 'signed', keyed: false, middleware: [signed] as [typeof signed] },
    signedMutation: {
      kind: 'signed',
      keyed: 'optional',
      middleware: [signed, keyed] as [typeof signed, typeof keyed],
    },
    optionallySigned: {
      kind: 'optionallySigned',
      keyed: false,
      middleware: [chains.optionallySigned] as [typeof chains.optionallySigned],
    },
    operator: {
      kind: 'operator',
      keyed: 'optional',
      middleware: [...chains.operator] as [...typeof chains.operator],
    },
    operatorRead: { kind: 'operator', keyed: false, middleware: [operatorToken] as [typeof operatorToken] },
  } satisfies Record<string, Access<Middleware | undefined>>;
  return { ...chains, access };
}
export type AuthMiddleware = ReturnType<typeof authMiddleware>;
