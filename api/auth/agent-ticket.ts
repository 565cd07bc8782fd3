// Verified-agent tickets (docs/security.md "Shared addresses"): after a request's signature is verified
// its answer carries `OpenContract-Ticket`, a MAC over the signer's keyid and an expiry. A later request
// that presents a valid ticket for the keyid it claims skips its address's buckets for unverified
// signatures, so a stranger's forgeries from the same address never refuse it. A ticket is no
// authentication: the request's signature is still required and verified.
import { createHmac, timingSafeEqual } from 'node:crypto';

export { TICKET_HEADER } from './ticket-header';
export const TICKET_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const MAC_BYTES = 16;

/** The tickets' key: the deployment's cursor key under its own label, so every API process accepts every other's. */
export function ticketKey(cursorKey: Uint8Array): Buffer {
  return createHmac('sha256', cursorKey).update('opencontract agent ticket').digest();
}

function mac(key: Buffer, keyid: string, expiresAt: number): Buffer {
  return createHmac('sha256', key)
    .update(`${keyid.toLowerCase()}\n${expiresAt}`)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** `v1.<expiry in seconds since the epoch>.<base64url of the truncated HMAC-SHA256>`. */
export function mintTicket(
  key: Buffer,
  keyid: string,
  nowMs: number,
  lifetimeMs = TICKET_LIFETIME_MS,
): string {
  const expiresAt = Math.floor((nowMs + lifetimeMs) / 1000);
  return `v1.${expiresAt}.${mac(key, keyid, expiresAt).toString('base64url')}`;
}

/** True when `ticket` was minted with `key` for `keyid` and has not expired. */
export function ticketValid(key: Buffer, ticket: string | undefined, keyid: string, nowMs: number): boolean {
  const match = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/.exec(ticket ?? '');
  if (match === null) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt * 1000 <= nowMs) return false;
  const given = Buffer.from(match[2]!, 'base64url');
  return given.length === MAC_BYTES && timingSafeEqual(given, mac(key, keyid, expiresAt));
}
