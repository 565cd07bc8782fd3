// Content-Digest (RFC 9530) with the `sha-256` algorithm: `sha-256=:<base64 of the digest>:`.
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { parseDictionary, serializeBytes } from './structured-fields';

export function contentDigest(body: Uint8Array | string): string {
  return `sha-256=${serializeBytes(sha256(typeof body === 'string' ? utf8ToBytes(body) : body))}`;
}

/**
 * The `sha-256` digest carried by a Content-Digest header, or undefined when it carries none
 * (other algorithms are ignored). Throws StructuredFieldError when the header is not a dictionary.
 */
export function sha256FromContentDigest(header: string): Uint8Array | undefined {
  const member = parseDictionary(header).get('sha-256');
  return member?.kind === 'item' && member.value.type === 'bytes' ? member.value.value : undefined;
}

/** Whether `header`'s sha-256 digest is that of `body` (false when it has none). */
export function contentDigestMatches(header: string, body: Uint8Array): boolean {
  const claimed = sha256FromContentDigest(header);
  const actual = sha256(body);
  return (
    claimed !== undefined && claimed.length === actual.length && claimed.every((b, i) => b === actual[i])
  );
}
