// Contract IDs: `c-` + 26 lowercase base32 characters (130 bits). Random, or derived
// from the Client's Idempotency-Key so a retried creation lands on the same workflow ID.
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_CHARS = 26;
export const CONTRACT_ID_PATTERN = /^c-[a-z2-7]{26}$/;

function base32(bytes: Uint8Array, length: number): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

export function isContractId(value: string): boolean {
  return CONTRACT_ID_PATTERN.test(value);
}

export function randomContractId(): string {
  return `c-${base32(randomBytes(17), ID_CHARS)}`;
}

/** The same (client, key) always gives the same ID; different clients never share one. */
export function contractIdForKey(client: string, idempotencyKey: string): string {
  const digest = createHash('sha256')
    .update(`opencontract contract id\0${client}\0${idempotencyKey}`)
    .digest();
  return `c-${base32(digest, ID_CHARS)}`;
}

/** A short, charset-safe token for ledger operation ids and Update ids built from an Idempotency-Key. */
export function keyToken(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}
