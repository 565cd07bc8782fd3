// Who acts when a delegate signs for its owner (docs/agents.md "Mandates"). After the signature is verified
// (the signer is `c.var.caller`), a request naming an owner in `On-Behalf-Of` (covered by the signature) is
// resolved here: the signer must hold the owner's newest mandate, live; the owner becomes the caller (the
// party of record, whose balance pays) and the delegation is kept for the handlers to send with the
// message. A mandate never reaches the routes that move or expose the owner's money outside contracts.
// This is a fast refusal: the ledger checks revocation, expiry and the limits again in the hold's transaction.
import { createMiddleware } from 'hono/factory';
import type { Mandate, MandateRegistry } from '../../store/ledger';
import { mandateLapse } from '../../store/ledger';
import type { CallerInput, Delegation } from '../../workflows/definitions';
import { isAddress } from '../../workflows/rules/address';
import type { SignedEnv } from '../auth';
import { badRequest, forbidden } from '../errors';

export const ON_BEHALF_OF_HEADER = 'On-Behalf-Of';

/** A delegated request: the mandate it acts under and the key that signed it. */
export interface ActingDelegation extends Delegation {
  limits: Mandate['limits'];
}

declare module 'hono' {
  interface ContextVariableMap {
    /** Set when a delegate signed for its owner (then `caller` is the owner). */
    delegation?: ActingDelegation;
  }
}

/**
 * Routes a delegate never uses for its owner, whatever its mandate: withdrawals, the eligibility stake,
 * webhooks, and granting or revoking mandates (reading them is allowed: a delegate may see what it has left).
 */
function closedToDelegates(method: string, path: string): boolean {
  if (/^\/agents\/[^/]+\/(withdrawals|webhooks)(\/|$)/.test(path)) return true;
  if (/^\/agents\/[^/]+\/mandates(\/|$)/.test(path)) return method !== 'GET';
  return /^\/eligibility(\/|$)/.test(path);
}

/** Resolves the acting party of a signed request; a request without On-Behalf-Of passes unchanged. */
export function actingParty(options: { mandates: () => MandateRegistry; now: () => number }) {
  return createMiddleware<SignedEnv>(async (c, next) => {
    const header = c.req.header(ON_BEHALF_OF_HEADER);
    if (header === undefined) return next();
    const owner = header.trim().toLowerCase();
    const fieldError = (message: string) =>
      badRequest(message, { fields: [{ field: ON_BEHALF_OF_HEADER, message }] }, 'invalid_input');
    if (!isAddress(owner)) throw fieldError('On-Behalf-Of must be the owner’s 0x + 40 hex address');
    const delegate = c.var.caller;
    if (owner === delegate) throw fieldError('On-Behalf-Of names the signer itself');
    if (closedToDelegates(c.req.method, c.req.path)) {
      throw forbidden(
        'a mandate never allows withdrawals, eligibility stake, webhooks or mandates: the owner signs these itself',
        undefined,
        'mandate_not_allowed',
      );
    }
    const mandate = await options.mandates().newestFor(owner, delegate);
    if (mandate === undefined) {
      throw forbidden(`${delegate} holds no mandate from ${owner}`, undefined, 'mandate_missing');
    }
    const lapse = mandateLapse(mandate, new Date(options.now()).toISOString());
    if (lapse !== null) {
      const what = lapse === 'mandate_revoked' ? 'was revoked' : `expired at ${mandate.expiresAt}`;
      throw forbidden(`mandate ${mandate.id} ${what}`, { mandate: mandate.id }, lapse);
    }
    c.set('caller', owner as SignedEnv['Variables']['caller']);
    c.set('delegation', { mandate: mandate.id, delegate, limits: mandate.limits });
    await next();
  });
}

/** The message input of the request's caller: the owner and, for a delegate, its delegation. */
export function callerInput(c: { var: { caller: string; delegation?: ActingDelegation } }): CallerInput {
  const delegation = c.var.delegation;
  return {
    caller: c.var.caller,
    ...(delegation === undefined
      ? {}
      : { delegation: { mandate: delegation.mandate, delegate: delegation.delegate } }),
  };
}
