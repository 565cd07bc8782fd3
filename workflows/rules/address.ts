// Agent addresses: Ethereum-style 0x + 40 hex, always handled in lowercase.
import { z } from 'zod';

export type Address = `0x${string}`;

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS_RE.test(value);
}

/** Lowercases a valid address; throws on anything else. The EIP-55 checksum case is not verified. */
export function normalizeAddress(value: string): Address {
  if (!isAddress(value)) throw new TypeError(`not an address (0x + 40 hex): ${JSON.stringify(value)}`);
  return value.toLowerCase() as Address;
}

export const addressSchema = z
  .string({ error: 'must be an address (0x + 40 hex)' })
  .regex(ADDRESS_RE, 'must be an address (0x + 40 hex)')
  .transform((s) => s.toLowerCase() as Address);
