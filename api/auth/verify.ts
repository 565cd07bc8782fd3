// Verifies a request signed as docs/security.md says and names the first reason it fails. The checks run
// cheapest first; the nonce is consumed last, only for a request that passed every other check,
// so a forged or stale request cannot burn a legitimate caller's nonce.
import type { Address } from './ethereum';
import { isCanonicalAddress } from '../../workflows/rules/address';
import { BadSignatureError, recoverPersonalMessageSigner } from './ethereum';
import { contentDigestMatches } from './content-digest';
import type { NonceStore } from '../../store/nonces/sqlite';
import type { Component, SignatureParams } from './signature-base';
import {
  COMPONENTS,
  MAX_SIGNATURE_LIFETIME_SECONDS,
  NONCE_PATTERN,
  SIGNATURE_LABEL,
  requiredComponents,
  signatureBase,
} from './signature-base';
import type { InnerList } from './structured-fields';
import { StructuredFieldError, parseDictionary, serializeInnerList } from './structured-fields';

/** How far in the future `created` may be, for callers whose clock runs ahead of ours. */
export const CLOCK_SKEW_SECONDS = 30;
const MAX_HEADER_LENGTH = 2048;

export type SignatureFailureReason =
  | 'missing_headers'
  | 'malformed'
  | 'wrong_label'
  | 'missing_component'
  | 'expires_too_far'
  | 'created_in_future'
  | 'expired'
  | 'digest_mismatch'
  | 'bad_signature'
  | 'keyid_mismatch'
  | 'nonce_reused';

export type VerifyResult =
  | { ok: true; caller: Address; params: SignatureParams }
  | { ok: false; reason: SignatureFailureReason; message: string };

export interface RequestToVerify {
  method: string;
  /** The full request URL; `@path` and `@query` are its WHATWG-parsed pathname and search. */
  url: string | URL;
  headers: Headers;
  /** The raw body bytes; absent or empty means "no body". */
  body?: Uint8Array;
}

class Refusal extends Error {
  constructor(
    readonly reason: SignatureFailureReason,
    message: string,
  ) {
    super(message);
  }
}

function refuse(reason: SignatureFailureReason, message: string): never {
  throw new Refusal(reason, message);
}

function dictionaryHeader(headers: Headers, name: string) {
  const value = headers.get(name);
  if (value === null) return refuse('missing_headers', `missing ${name} header`);
  if (value.length > MAX_HEADER_LENGTH) return refuse('malformed', `${name} header is too long`);
  try {
    return parseDictionary(value);
  } catch (err) {
    if (err instanceof StructuredFieldError) return refuse('malformed', `${name}: ${err.message}`);
    throw err;
  }
}

function parseComponents(list: InnerList): Component[] {
  const components: Component[] = [];
  for (const item of list.items) {
    const name = item.value.type === 'string' ? item.value.value : undefined;
    if (name === undefined || item.params.length > 0)
      refuse('malformed', 'covered components must be plain strings');
    if (!(COMPONENTS as readonly string[]).includes(name)) {
      refuse('malformed', `component "${name}" is not supported (allowed: ${COMPONENTS.join(', ')})`);
    }
    if (components.includes(name as Component)) refuse('malformed', `component "${name}" is covered twice`);
    components.push(name as Component);
  }
  return components;
}

function parseParams(list: InnerList): Omit<SignatureParams, 'components'> {
  const found = new Map(list.params);
  for (const key of found.keys()) {
    if (!['created', 'expires', 'nonce', 'keyid'].includes(key)) {
      refuse('malformed', `signature parameter "${key}" is not supported`);
    }
  }
  const integer = (key: string): number => {
    const v = found.get(key);
    return v?.type === 'integer' && v.value >= 0
      ? v.value
      : refuse('malformed', `"${key}" must be a unix time`);
  };
  const string = (key: string): string => {
    const v = found.get(key);
    return v?.type === 'string' ? v.value : refuse('malformed', `"${key}" must be a string parameter`);
  };
  const created = integer('created');
  const expires = integer('expires');
  const nonce = string('nonce');
  const keyid = string('keyid');
  if (!NONCE_PATTERN.test(nonce))
    refuse('malformed', 'nonce must be 16-128 characters of [A-Za-z0-9._~+/=-]');
  if (!isCanonicalAddress(keyid))
    refuse('malformed', 'keyid must be a lowercase 0x address of 40 hex digits');
  return { created, expires, nonce, keyid };
}

function checkTimes(params: SignatureParams, nowSeconds: number): void {
  if (params.expires <= params.created) refuse('malformed', 'expires must be after created');
  if (params.expires - params.created > MAX_SIGNATURE_LIFETIME_SECONDS) {
    refuse('expires_too_far', `expires is more than ${MAX_SIGNATURE_LIFETIME_SECONDS} s after created`);
  }
  if (params.created > nowSeconds + CLOCK_SKEW_SECONDS) {
    refuse('created_in_future', `created is ${params.created - nowSeconds} s in the future`);
  }
  if (nowSeconds > params.expires)
    refuse('expired', `signature expired ${nowSeconds - params.expires} s ago`);
}

function check(request: RequestToVerify, nowMs: number): { caller: Address; params: SignatureParams } {
  const inputs = dictionaryHeader(request.headers, 'Signature-Input');
  const signatures = dictionaryHeader(request.headers, 'Signature');
  const input = inputs.get(SIGNATURE_LABEL);
  const signature = signatures.get(SIGNATURE_LABEL);
  if (!input || !signature)
    refuse('wrong_label', `Signature-Input and Signature must carry label ${SIGNATURE_LABEL}`);
  if (input.kind !== 'innerList')
    return refuse('malformed', `Signature-Input ${SIGNATURE_LABEL} must be an inner list`);
  if (signature.kind !== 'item' || signature.value.type !== 'bytes') {
    return refuse('malformed', `Signature ${SIGNATURE_LABEL} must be a byte sequence`);
  }

  const params: SignatureParams = { components: parseComponents(input), ...parseParams(input) };
  const url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  const body = request.body ?? new Uint8Array();
  const onBehalfOf = request.headers.get('On-Behalf-Of') ?? undefined;
  const required = requiredComponents({
    url,
    hasBody: body.length > 0,
    onBehalfOf: onBehalfOf !== undefined,
  });
  for (const component of required) {
    if (!params.components.includes(component))
      refuse('missing_component', `the signature must cover "${component}"`);
  }
  checkTimes(params, Math.floor(nowMs / 1000));

  const contentDigest = request.headers.get('Content-Digest') ?? undefined;
  if (params.components.includes('content-digest')) {
    if (contentDigest === undefined) refuse('missing_headers', 'missing Content-Digest header');
    let matches: boolean;
    try {
      matches = contentDigestMatches(contentDigest, body);
    } catch (err) {
      if (err instanceof StructuredFieldError) refuse('malformed', `Content-Digest: ${err.message}`);
      throw err;
    }
    if (!matches) refuse('digest_mismatch', 'the body does not match its Content-Digest (sha-256)');
  }

  if (params.components.includes('on-behalf-of') && onBehalfOf === undefined)
    refuse('missing_headers', 'missing On-Behalf-Of header');
  const base = signatureBase(
    { method: request.method, url, contentDigest, onBehalfOf },
    params.components,
    serializeInnerList(input),
  );
  let signer: Address;
  try {
    signer = recoverPersonalMessageSigner(base, signature.value.value);
  } catch (err) {
    if (err instanceof BadSignatureError) refuse('bad_signature', err.message);
    throw err;
  }
  if (signer !== params.keyid) refuse('keyid_mismatch', 'the signature was not made by the key of keyid');
  return { caller: signer, params };
}

/** Every check but the nonce's: for tools and tests; a server must use verifyRequest. */
export function checkRequestSignature(
  request: RequestToVerify,
  options: { now?: number } = {},
): VerifyResult {
  try {
    return { ok: true, ...check(request, options.now ?? Date.now()) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.reason, message: err.message };
    throw err;
  }
}

/**
 * Every check of docs/security.md, then consumes the nonce. `now` is in milliseconds (default Date.now()).
 * The caller is the recovered address, equal to keyid.
 */
export async function verifyRequest(
  request: RequestToVerify,
  options: { nonces: NonceStore; now?: number },
): Promise<VerifyResult> {
  const result = checkRequestSignature(request, { now: options.now });
  if (!result.ok) return result;
  const fresh = await options.nonces.consume(result.params.keyid, result.params.nonce, result.params.expires);
  return fresh
    ? result
    : { ok: false, reason: 'nonce_reused', message: 'this nonce was already used by this key' };
}
