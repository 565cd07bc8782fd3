// The RFC 9421 signature base for the API's one signature profile (docs/security.md): label `sig1`,
// components `@method`, `@path`, `@query` (when the URL has a query), `content-digest` (when there
// is a body, `on-behalf-of` when a delegate names its owner), parameters `created`, `expires`, `nonce`,
// `keyid`. Pure: shared by signer and verifier.
import type { Address } from './ethereum';
import type { InnerList, Parameters } from './structured-fields';
import { serializeBytes, serializeInnerList } from './structured-fields';

export const SIGNATURE_LABEL = 'sig1';
/** `expires` may be at most this many seconds after `created`. */
export const MAX_SIGNATURE_LIFETIME_SECONDS = 300;

/** Nonces are 16-128 characters of base64, base64url or hex (e.g. 16 random bytes). */
export const NONCE_PATTERN = /^[A-Za-z0-9._~+/=-]{16,128}$/;

export const COMPONENTS = ['@method', '@path', '@query', 'content-digest', 'on-behalf-of'] as const;
export type Component = (typeof COMPONENTS)[number];

export interface SignatureParams {
  components: Component[];
  /** Unix seconds. */
  created: number;
  /** Unix seconds, after `created` and at most MAX_SIGNATURE_LIFETIME_SECONDS after it. */
  expires: number;
  nonce: string;
  keyid: Address;
}

/** What the signature covers of a request, in the form both sides compute it. */
export interface CoveredRequest {
  method: string;
  url: URL;
  /** The Content-Digest header value; required when `content-digest` is covered. */
  contentDigest?: string;
  /** The On-Behalf-Of header value (a delegate's owner); required when `on-behalf-of` is covered. */
  onBehalfOf?: string;
}

/** Components a request must cover: always method and path; query, digest and owner when present. */
export function requiredComponents(request: {
  url: URL;
  hasBody: boolean;
  onBehalfOf?: boolean;
}): Component[] {
  return [
    '@method',
    '@path',
    ...(request.url.search ? (['@query'] as const) : []),
    ...(request.hasBody ? (['content-digest'] as const) : []),
    ...(request.onBehalfOf === true ? (['on-behalf-of'] as const) : []),
  ];
}

function componentValue(component: Component, request: CoveredRequest): string {
  switch (component) {
    case '@method':
      return request.method.toUpperCase();
    case '@path':
      return request.url.pathname || '/';
    case '@query':
      return request.url.search || '?';
    case 'content-digest':
      if (request.contentDigest === undefined)
        throw new Error('content-digest is covered but the header is absent');
      return request.contentDigest.trim();
    case 'on-behalf-of':
      if (request.onBehalfOf === undefined)
        throw new Error('on-behalf-of is covered but the header is absent');
      return request.onBehalfOf.trim();
  }
}

function paramsList(params: SignatureParams): InnerList {
  const parameters: Parameters = [
    ['created', { type: 'integer', value: params.created }],
    ['expires', { type: 'integer', value: params.expires }],
    ['nonce', { type: 'string', value: params.nonce }],
    ['keyid', { type: 'string', value: params.keyid }],
  ];
  return {
    kind: 'innerList',
    items: params.components.map((c) => ({ kind: 'item', value: { type: 'string', value: c }, params: [] })),
    params: parameters,
  };
}

/** The `@signature-params` value, which is also the Signature-Input member after `sig1=`. */
export function signatureParamsValue(params: SignatureParams): string {
  return serializeInnerList(paramsList(params));
}

/**
 * RFC 9421 §2.5: one `"name": value` line per covered component, then `"@signature-params"` with
 * `paramsValue`, the serialized Signature-Input member (the verifier re-serializes what it parsed,
 * so a signer may order the parameters as it likes).
 */
export function signatureBase(
  request: CoveredRequest,
  components: readonly Component[],
  paramsValue: string,
): string {
  const lines = components.map((c) => `"${c}": ${componentValue(c, request)}`);
  lines.push(`"@signature-params": ${paramsValue}`);
  return lines.join('\n');
}

export function signatureInputHeader(params: SignatureParams): string {
  return `${SIGNATURE_LABEL}=${signatureParamsValue(params)}`;
}

export function signatureHeader(signature: Uint8Array): string {
  return `${SIGNATURE_LABEL}=${serializeBytes(signature)}`;
}
