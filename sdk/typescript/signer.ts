// Signs an API request as docs/security.md says (with its worked example). Used by the
// agent SDK and the tests; depends only on the pure signature profile, never on server code.
import { randomBytes } from '@noble/hashes/utils.js';
import { contentDigest } from '../../api/auth/content-digest';
import { addressFromPrivateKey, signPersonalMessage } from '../../api/auth/ethereum';
import type { SignatureParams } from '../../api/auth/signature-base';
import {
  MAX_SIGNATURE_LIFETIME_SECONDS,
  NONCE_PATTERN,
  requiredComponents,
  signatureBase,
  signatureHeader,
  signatureInputHeader,
  signatureParamsValue,
} from '../../api/auth/signature-base';

export type { Address } from '../../api/auth/ethereum';
export { addressFromPrivateKey, randomPrivateKey } from '../../api/auth/ethereum';

export const DEFAULT_SIGNATURE_LIFETIME_SECONDS = 60;

export interface SignRequestInput {
  method: string;
  /** Absolute URL, or a path with optional query (`/contracts?status=open`). */
  url: string | URL;
  /** The exact body that will be sent; empty or absent means no body and no Content-Digest. */
  body?: string | Uint8Array;
  privateKey: Uint8Array | string;
  /** Milliseconds since the epoch (default Date.now()); `created` is its whole seconds. */
  now?: number;
  /** Default: 16 random bytes, base64url. Must never be reused with the same key. */
  nonce?: string;
  /** Seconds from created to expires, 1..300 (default 60). */
  expiresIn?: number;
  /** A delegate's owner (docs/agents.md "Mandates"): sent as On-Behalf-Of and covered by the signature. */
  onBehalfOf?: string;
}

export interface SignatureHeaders {
  'Signature-Input': string;
  Signature: string;
  'Content-Digest'?: string;
  'On-Behalf-Of'?: string;
}

/** The headers of a signed request and the signature base they sign (for test vectors and debugging). */
export interface SignedRequestParts {
  headers: SignatureHeaders;
  signatureBase: string;
}

export function signRequest(input: SignRequestInput): SignatureHeaders {
  return signRequestParts(input).headers;
}

export function signRequestParts(input: SignRequestInput): SignedRequestParts {
  const expiresIn = input.expiresIn ?? DEFAULT_SIGNATURE_LIFETIME_SECONDS;
  if (!Number.isInteger(expiresIn) || expiresIn < 1 || expiresIn > MAX_SIGNATURE_LIFETIME_SECONDS) {
    throw new Error(
      `expiresIn must be a whole number of seconds from 1 to ${MAX_SIGNATURE_LIFETIME_SECONDS}`,
    );
  }
  const nonce = input.nonce ?? Buffer.from(randomBytes(16)).toString('base64url');
  if (!NONCE_PATTERN.test(nonce)) throw new Error('nonce must be 16-128 characters of [A-Za-z0-9._~+/=-]');

  const url = new URL(input.url, 'http://localhost');
  const hasBody = input.body !== undefined && input.body.length > 0;
  const digest = hasBody && input.body !== undefined ? contentDigest(input.body) : undefined;
  const created = Math.floor((input.now ?? Date.now()) / 1000);
  const onBehalfOf = input.onBehalfOf?.toLowerCase();
  const params: SignatureParams = {
    components: requiredComponents({ url, hasBody, onBehalfOf: onBehalfOf !== undefined }),
    created,
    expires: created + expiresIn,
    nonce,
    keyid: addressFromPrivateKey(input.privateKey),
  };
  const base = signatureBase(
    { method: input.method, url, contentDigest: digest, onBehalfOf },
    params.components,
    signatureParamsValue(params),
  );
  return {
    headers: {
      'Signature-Input': signatureInputHeader(params),
      Signature: signatureHeader(signPersonalMessage(base, input.privateKey)),
      ...(digest === undefined ? {} : { 'Content-Digest': digest }),
      ...(onBehalfOf === undefined ? {} : { 'On-Behalf-Of': onBehalfOf }),
    },
    signatureBase: base,
  };
}
