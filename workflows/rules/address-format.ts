// Agent addresses, the one rule: Ethereum-style 0x + 40 hex. An agent may write one in any case (a
// body, a path, a ledger call); it is lowercased on the way in, and the service stores, signs over
// (a signature's keyid) and answers only the lowercase form. Without zod, so the ledger's thread
// (store/ledger/sqlite-thread.ts) starts without loading it; the schema is in address.ts.
export type Address = `0x${string}`;

/** What an agent may write: any case. */
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
/** The canonical form: lowercase, as stored, answered and logged. */
export const CANONICAL_ADDRESS_RE = /^0x[0-9a-f]{40}$/;

export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS_RE.test(value);
}

export function isCanonicalAddress(value: unknown): value is Address {
  return typeof value === 'string' && CANONICAL_ADDRESS_RE.test(value);
}

/** Lowercases a valid address; throws on anything else. The EIP-55 checksum case is not verified. */
export function normalizeAddress(value: string): Address {
  if (!isAddress(value)) throw new TypeError(`not an address (0x + 40 hex): ${JSON.stringify(value)}`);
  return value.toLowerCase() as Address;
}
