// Pins the worked example of docs/security.md: if this fails, the document is wrong.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesToHex } from '@noble/hashes/utils.js';
import { contentDigest } from '../../api/auth/content-digest';
import { personalMessageHash } from '../../api/auth/ethereum';
import { signatureBase, signatureParamsValue } from '../../api/auth/signature-base';
import { checkRequestSignature } from '../../api/auth/verify';
import { signRequest } from '../../sdk/typescript/signer';
import { ALICE, ALICE_KEY } from './support';

const BODY = '{"price":"1500000","message":"can start today"}';
const URL_PATH = '/contracts/ct_8f14e45f/quotes';
const NONCE = 'kY2n0q3dTn6y8Jz1Yx7w1A';
const CREATED = 1_700_000_000;

const BASE = [
  '"@method": POST',
  '"@path": /contracts/ct_8f14e45f/quotes',
  '"content-digest": sha-256=:bircwEmOiTcL1+VSUdLJkklBl2qaFafE0zW6bHGICqQ=:',
  '"@signature-params": ("@method" "@path" "content-digest");created=1700000000;expires=1700000060;' +
    'nonce="kY2n0q3dTn6y8Jz1Yx7w1A";keyid="0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"',
].join('\n');

const HEADERS = {
  'Signature-Input':
    'sig1=("@method" "@path" "content-digest");created=1700000000;expires=1700000060;' +
    'nonce="kY2n0q3dTn6y8Jz1Yx7w1A";keyid="0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"',
  Signature:
    'sig1=:e5AsQSJ2BLSP6AX6k4rgPXZezklGuERqr1YAgzhYldhAYLmZMebZhdbGoqtJUtywwAu/sYs4dcR4OeumWW2Yfxs=:',
  'Content-Digest': 'sha-256=:bircwEmOiTcL1+VSUdLJkklBl2qaFafE0zW6bHGICqQ=:',
};

describe('docs/security.md worked example', () => {
  test('the signature base, its EIP-191 hash and the headers are as documented', () => {
    const url = new URL(URL_PATH, 'http://localhost');
    const base = signatureBase(
      { method: 'POST', url, contentDigest: contentDigest(BODY) },
      ['@method', '@path', 'content-digest'],
      signatureParamsValue({
        components: ['@method', '@path', 'content-digest'],
        created: CREATED,
        expires: CREATED + 60,
        nonce: NONCE,
        keyid: ALICE,
      }),
    );
    assert.equal(base, BASE);
    assert.equal(
      bytesToHex(personalMessageHash(base)),
      '8f6d22cb17f080073a6d02263bfbec9f8adc3637b86ed6e71a786e005f4841f7',
    );
    const headers = signRequest({
      method: 'POST',
      url: `https://api.example.org${URL_PATH}`,
      body: BODY,
      privateKey: ALICE_KEY,
      now: CREATED * 1000,
      nonce: NONCE,
      expiresIn: 60,
    });
    assert.deepEqual(headers, HEADERS);
  });

  test('the server accepts the documented request until it expires', () => {
    const request = {
      method: 'POST',
      url: `http://localhost${URL_PATH}`,
      headers: new Headers(HEADERS),
      body: new TextEncoder().encode(BODY),
    };
    assert.deepEqual(checkRequestSignature(request, { now: (CREATED + 60) * 1000 }), {
      ok: true,
      caller: ALICE,
      params: {
        components: ['@method', '@path', 'content-digest'],
        created: CREATED,
        expires: CREATED + 60,
        nonce: NONCE,
        keyid: ALICE,
      },
    });
    const late = checkRequestSignature(request, { now: (CREATED + 61) * 1000 });
    assert.equal(late.ok === false && late.reason, 'expired');
  });
});
