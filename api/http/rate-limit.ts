// Rate limits (docs/security.md "What it costs to trigger"): a signed request is charged to its agent
// and to its host's budget for signed traffic, which bounds how far minting keys multiplies a host's
// rate; an unsigned request to its address's bucket; a request with signature headers that no agent
// paid for (a bad signature) to its address's unverified bucket, unless it presents a verified-agent
// ticket for its keyid (then to that keyid's bucket for ticketed forgeries). The three are apart, so a flood of
// one kind never refuses another kind's requests. A refused request answers 429 `rate_limited` with
// `Retry-After` and changes nothing. The buckets live in a store:
// in memory for one process (the SQLite default), in PostgreSQL when API processes share one
// (store/rate-limit/postgres.ts), so every process spends from the same bucket.
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { RateLimitSettings, RateLimitStore } from '../../store/rate-limit';
import { clientAddress } from './client-address';
import { errorBody } from '../errors';
import { TICKET_HEADER, ticketValid } from '../auth/agent-ticket';

export { clientAddress } from './client-address';

export type { BucketRule, RateLimitSettings, RateLimitStore, TakeResult } from '../../store/rate-limit';
export { DEFAULT_RATE_LIMITS, MemoryRateLimitStore } from '../../store/rate-limit';

/** The 429 answer: the §12 error shape, code `rate_limited`, `Retry-After` in whole seconds. */
export function tooManyRequests(c: Context, waitMs: number, message: string): Response {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  c.header('Retry-After', String(seconds));
  return c.json(errorBody('rate_limited', message, { retryAfterSeconds: seconds }), 429);
}

export interface Limits {
  settings: RateLimitSettings;
  store: RateLimitStore;
  now: () => number;
  /**
   * True when the agent has money at stake (api/app.ts: at least a minimum Worker Stake held), as
   * every party of an open contract has: its host's emptied budget does not refuse it.
   */
  atStake?: (agent: string) => Promise<boolean>;
  /** The verified-agent tickets' key (api/auth/agent-ticket.ts); without it no ticket is honoured. */
  ticketKey?: Buffer;
}

const hasSignatureHeaders = (c: Context) =>
  c.req.header('Signature') !== undefined || c.req.header('Signature-Input') !== undefined;

/** The keyid a request's `Signature-Input` claims, lowercase; read without checking anything else. */
function claimedKeyid(c: Context): string | null {
  const match = /;\s*keyid="(0x[0-9a-fA-F]{40})"/.exec(c.req.header('Signature-Input') ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * Every request, before anything else. Unsigned ones spend a token of their address's bucket. Signed
 * ones are charged once their signature is verified (agentLimit); one that no agent paid for (a bad
 * signature, or signature headers on a public route) spends its address's unverified bucket.
 *
 * A stranger sharing the address (a NAT, a cloud egress, every client behind one proxy) can empty
 * that bucket, so it does not stop a request on its own: once it is empty, a request is still
 * verified when the keyid it claims is an agent with money at stake (every party of an open contract
 * is) and the address's bucket for forgeries of that keyid has a token. So forgeries claiming fresh
 * keys are refused before any signature is checked (verifying costs ~2 ms of CPU; keys are free),
 * forgeries claiming staked keys are bounded per staked key.
 *
 * Those buckets can still refuse an agent's correctly signed request (forgeries of its own keyid from
 * its address, or of fresh keys while it has nothing at stake), so a request presenting a valid
 * verified-agent ticket for the keyid it claims (api/auth/agent-ticket.ts; every verified request's
 * answer carries one, the SDKs send it back) skips them and is verified at once, then charged by
 * agentLimit like any signed request.
 */
export function addressLimit(limits: Limits): MiddlewareHandler {
  const { address, unverified } = limits.settings;
  /**
   * A request with a valid ticket for the keyid it claims goes straight to verification while that
   * keyid's bucket for ticketed forgeries has a token. One that then fails verification (a leaked
   * ticket) spends that bucket, wherever it comes from: a leaked ticket bounds how many forgeries are
   * verified per keyid, and once it is spent the keyid's requests are back on their address's buckets
   * (as without a ticket), so it costs no other agent anything.
   */
  const ticketed = async (c: Context, keyid: string | null) => {
    if (keyid === null || limits.ticketKey === undefined) return null;
    if (!ticketValid(limits.ticketKey, c.req.header(TICKET_HEADER), keyid, limits.now())) return null;
    const key = `forged-ticket:${keyid}`;
    return (await limits.store.take(key, unverified, 0, limits.now())).ok ? key : null;
  };
  return createMiddleware(async (c, next) => {
    const host = clientAddress(c);
    if (!hasSignatureHeaders(c)) {
      const taken = await limits.store.take(`address:${host}`, address, 1, limits.now());
      if (!taken.ok) return tooManyRequests(c, taken.retryAfterMs, 'too many requests from this address');
      return next();
    }
    const keyid = claimedKeyid(c);
    const ticketKey = await ticketed(c, keyid);
    if (ticketKey !== null) {
      await next();
      if (c.get('caller') === undefined) await limits.store.take(ticketKey, unverified, 1, limits.now());
      return;
    }
    const hostKey = `unverified:${host}`;
    const room = await limits.store.take(hostKey, unverified, 0, limits.now());
    const keyKey = keyid === null ? null : `forged:${host}:${keyid}`;
    let keyed = false;
    if (!room.ok) {
      const staked = keyKey !== null && (await limits.atStake?.(keyid!)) === true;
      const keyRoom = staked ? await limits.store.take(keyKey, unverified, 0, limits.now()) : room;
      if (!keyRoom.ok) {
        return tooManyRequests(c, keyRoom.retryAfterMs, 'too many unverified signatures from this address');
      }
      keyed = true;
    }
    await next();
    if (c.get('caller') !== undefined) return;
    await limits.store.take(hostKey, unverified, 1, limits.now());
    if (keyed) await limits.store.take(keyKey!, unverified, 1, limits.now());
  });
}

/**
 * After requireSignature: the verified agent spends a token of its own bucket and one of its host's
 * bucket for signed traffic. The host is asked first without spending, so a refusal spends nothing.
 * An agent with money at stake is charged to its own bucket only once its host's is empty: keys cost
 * nothing to mint, a stake does, and every party of an open contract holds one (its escrow, its
 * Worker Stake, its bond or eligibility stake), so a host's flood of fresh keys never refuses a party.
 */
export function agentLimit(limits: Limits): MiddlewareHandler {
  const { agent, host } = limits.settings;
  return createMiddleware(async (c, next) => {
    const caller = c.get('caller') as string | undefined;
    if (caller === undefined) return next();
    const hostKey = `host:${clientAddress(c)}`;
    const hostRoom = await limits.store.take(hostKey, host, 0, limits.now());
    const exempt = !hostRoom.ok && (await limits.atStake?.(caller)) === true;
    if (!hostRoom.ok && !exempt) {
      return tooManyRequests(c, hostRoom.retryAfterMs, "too many signed requests from this agent's address");
    }
    const taken = await limits.store.take(`agent:${caller.toLowerCase()}`, agent, 1, limits.now());
    if (!taken.ok) return tooManyRequests(c, taken.retryAfterMs, 'too many requests from this agent');
    if (exempt) return next();
    const hostTaken = await limits.store.take(hostKey, host, 1, limits.now());
    if (!hostTaken.ok && (await limits.atStake?.(caller)) !== true) {
      return tooManyRequests(c, hostTaken.retryAfterMs, "too many signed requests from this agent's address");
    }
    return next();
  });
}
