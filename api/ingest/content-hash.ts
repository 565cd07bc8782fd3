// The content hash the contract keeps (docs/protocol.md §10): sha256 of the normalized content in a
// canonical JSON form — object keys sorted, no whitespace — so the same content always hashes the same.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** JSON with object keys sorted at every level. Non-finite numbers become null, as in JSON.stringify. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function contentSha256(content: Record<string, unknown>): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(content))));
}
