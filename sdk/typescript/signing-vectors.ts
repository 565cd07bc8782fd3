// The signing test vectors (docs/signing-vectors.json, served at /docs/signing/vectors.json): fixed
// keys, times and nonces run through the SDK's signer, so a signer written in any language can be
// checked byte for byte against this one. `scripts/signing-vectors.ts` writes the file from here.
import { bytesToHex } from '@noble/hashes/utils.js';
import { personalMessageHash } from '../../api/auth/ethereum';
import type { Address } from './signer';
import { addressFromPrivateKey, signRequestParts } from './signer';

/** What a vector fixes; everything else in it is computed by the signer. */
export interface SigningVectorInput {
  name: string;
  privateKey: `0x${string}`;
  method: string;
  path: string;
  /** "" or "?" followed by the query as sent. */
  query: string;
  /** The exact body as sent; "" for none. */
  body: string;
  created: number;
  expires: number;
  nonce: string;
  /** A delegate's owner, sent as On-Behalf-Of and covered last (docs/agents.md "Mandates"); absent for none. */
  onBehalfOf?: string;
}

export interface SigningVector extends SigningVectorInput {
  address: Address;
  /** The Content-Digest header, null when there is no body. */
  contentDigest: string | null;
  signatureBase: string;
  /** keccak256("\x19Ethereum Signed Message:\n" + byte length + signatureBase), 0x + 64 hex. */
  eip191Hash: `0x${string}`;
  signatureInput: string;
  signature: string;
}

export interface SigningVectorsFile {
  description: string;
  vectors: SigningVector[];
}

/** The public test key of docs/security.md's worked example. */
const ALICE_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const BOB_KEY = '0x0123456789012345678901234567890123456789012345678901234567890123';
const ALICE = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const CREATED = 1_700_000_000;

export const SIGNING_VECTOR_INPUTS: readonly SigningVectorInput[] = [
  {
    name: 'post-with-body',
    privateKey: ALICE_KEY,
    method: 'POST',
    path: '/contracts/ct_8f14e45f/quotes',
    query: '',
    body: '{"price":"1500000","message":"can start today"}',
    created: CREATED,
    expires: CREATED + 60,
    nonce: 'kY2n0q3dTn6y8Jz1Yx7w1A',
  },
  {
    name: 'get-with-query',
    privateKey: ALICE_KEY,
    method: 'GET',
    path: '/contracts',
    query: '?status=open&awardMethod=open',
    body: '',
    created: CREATED,
    expires: CREATED + 60,
    nonce: 'Vx3b9QpLm2TzR7aKc4NsYw',
  },
  {
    name: 'get-without-query-or-body',
    privateKey: ALICE_KEY,
    method: 'GET',
    path: `/agents/${ALICE}/balances`,
    query: '',
    body: '',
    created: CREATED,
    expires: CREATED + 60,
    nonce: 'b7Hq2XwE0sJd5LfUo1GiZg',
  },
  {
    name: 'post-with-utf8-body',
    privateKey: ALICE_KEY,
    method: 'POST',
    path: '/contracts/ct_8f14e45f/quotes',
    query: '',
    body: '{"price":"2500000","message":"Übersetzung bis morgen früh — 明日の朝までに"}',
    created: CREATED + 5,
    expires: CREATED + 125,
    nonce: 'nR4tW8yB1cK6mP0qS3vX9z',
  },
  {
    name: 'second-key-post-without-body',
    privateKey: BOB_KEY,
    method: 'POST',
    path: '/contracts/ct_8f14e45f/accept',
    query: '',
    body: '',
    created: CREATED,
    expires: CREATED + 300,
    nonce: 'Jm5pT2xZ8eQ4hW7rN1uC6a',
  },
  {
    name: 'second-key-percent-encoded-query-with-body',
    privateKey: BOB_KEY,
    method: 'POST',
    path: '/contracts/ct_8f14e45f/votes',
    query: '?note=a%20b%2Fc',
    body: '{"verdicts":[{"criterionId":"c1","met":true}]}',
    created: CREATED,
    expires: CREATED + 30,
    nonce: 'zP0aL9kD3fG7jH2sQ6wE4r',
  },
  {
    name: 'delegate-post-on-behalf-of-owner',
    privateKey: BOB_KEY,
    method: 'POST',
    path: '/contracts/ct_8f14e45f/approve',
    query: '',
    body: '{}',
    created: CREATED,
    expires: CREATED + 60,
    nonce: 'Dg7uK2pV9sX4bN1mQ8wT3e',
    onBehalfOf: ALICE,
  },
];

export const SIGNING_VECTORS_DESCRIPTION =
  'Test vectors for the request signature every signed OpenContract API call carries: HTTP Message ' +
  'Signatures (RFC 9421) with one profile — label sig1; covered components "@method", "@path", then ' +
  '"@query" when the URL has a query, then "content-digest" when the body has at least one byte, then ' +
  '"on-behalf-of" when a delegate key names its owner in the On-Behalf-Of header; ' +
  'parameters created, expires, nonce, keyid (the lowercase Ethereum address of the key) in that ' +
  'order — where the signature base is signed as an EIP-191 personal message with the secp256k1 key ' +
  '(deterministic RFC 6979, low s, 65 bytes r‖s‖v with v 27 or 28, base64 in the Signature header) and ' +
  'the body digest is Content-Digest sha-256 (RFC 9530). Each vector fixes privateKey, method, path, ' +
  'query ("" or "?" and the query as sent), body (the exact UTF-8 bytes as sent, "" for none), created, ' +
  'expires and nonce, and onBehalfOf when a delegate signs for that owner; a conforming signer computes from them exactly address, contentDigest (null when ' +
  'there is no body), signatureBase (lines joined by \\n, no trailing newline), eip191Hash, ' +
  'signatureInput (the Signature-Input header) and signature (the Signature header). A verifier given ' +
  'the request and these headers at any time from created to expires recovers address. The keys are ' +
  'public test keys: never use them for anything else. The guide is served at /docs/signing.';

export function signingVector(input: SigningVectorInput): SigningVector {
  const { headers, signatureBase } = signRequestParts({
    method: input.method,
    url: `${input.path}${input.query}`,
    body: input.body,
    privateKey: input.privateKey,
    now: input.created * 1000,
    nonce: input.nonce,
    expiresIn: input.expires - input.created,
    ...(input.onBehalfOf === undefined ? {} : { onBehalfOf: input.onBehalfOf }),
  });
  return {
    name: input.name,
    privateKey: input.privateKey,
    address: addressFromPrivateKey(input.privateKey),
    method: input.method,
    path: input.path,
    query: input.query,
    body: input.body,
    created: input.created,
    expires: input.expires,
    nonce: input.nonce,
    ...(input.onBehalfOf === undefined ? {} : { onBehalfOf: input.onBehalfOf }),
    contentDigest: headers['Content-Digest'] ?? null,
    signatureBase,
    eip191Hash: `0x${bytesToHex(personalMessageHash(signatureBase))}`,
    signatureInput: headers['Signature-Input'],
    signature: headers.Signature,
  };
}

export function buildSigningVectors(): SigningVectorsFile {
  return { description: SIGNING_VECTORS_DESCRIPTION, vectors: SIGNING_VECTOR_INPUTS.map(signingVector) };
}

/** The file's exact text: what the script writes and the test compares. */
export function signingVectorsJson(): string {
  return `${JSON.stringify(buildSigningVectors(), null, 2)}\n`;
}
