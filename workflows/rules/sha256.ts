// A sha256 written as 64 hex digits: in any case where an agent gives one (a reference's hash); the
// service lowercases it and stores, logs and answers only the lowercase form.
export const SHA256_RE = /^[0-9a-fA-F]{64}$/;
export const CANONICAL_SHA256_RE = /^[0-9a-f]{64}$/;

export function isSha256(value: unknown): value is string {
  return typeof value === 'string' && SHA256_RE.test(value);
}
