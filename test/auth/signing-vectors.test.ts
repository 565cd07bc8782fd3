// docs/signing-vectors.json, the vectors other languages' signers are tested against: each one is
// re-signed here by the SDK's signer and must match byte for byte, and the server's signature
// middleware must accept each request and recover the vector's address.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { bytesToHex } from '@noble/hashes/utils.js';
import { personalMessageHash } from '../../api/auth/ethereum';
import type { NonceStore } from '../../store/nonces/sqlite';
import type { SignedEnv } from '../../api/auth/require-signature';
import { requireSignature } from '../../api/auth/require-signature';
import { addressFromPrivateKey, signRequestParts } from '../../sdk/typescript/signer';
import type { SigningVectorsFile } from '../../sdk/typescript/signing-vectors';
import { signingVectorsJson } from '../../sdk/typescript/signing-vectors';

const root = join(__dirname, '..', '..');
const text = readFileSync(join(root, 'docs', 'signing-vectors.json'), 'utf8');
const file = JSON.parse(text) as SigningVectorsFile;

/** Remembers nonces in memory: enough for one test's replay check. */
function memoryNonces(): NonceStore {
  const seen = new Set<string>();
  return {
    consume: (keyid, nonce) => {
      const key = `${keyid} ${nonce}`;
      const fresh = !seen.has(key);
      seen.add(key);
      return Promise.resolve(fresh);
    },
  };
}

describe('docs/signing-vectors.json', () => {
  test('is what scripts/signing-vectors.ts writes from the signer', () => {
    assert.equal(text, signingVectorsJson(), 'run `npx tsx scripts/signing-vectors.ts`');
  });

  test('covers the cases a signer in another language must get right', () => {
    const v = file.vectors;
    assert.ok(v.some((x) => x.method === 'GET' && x.query !== '' && x.body === ''));
    assert.ok(v.some((x) => x.method === 'GET' && x.query === '' && x.body === ''));
    assert.ok(v.some((x) => x.method === 'POST' && x.body === '' && x.contentDigest === null));
    assert.ok(v.some((x) => Buffer.byteLength(x.body) > x.body.length));
    assert.ok(new Set(v.map((x) => x.address)).size >= 2);
    assert.equal(new Set(v.map((x) => x.name)).size, v.length);
    assert.equal(new Set(v.map((x) => `${x.address} ${x.nonce}`)).size, v.length);
  });

  test("the worked example's values are those of docs/security.md", () => {
    const doc = readFileSync(join(root, 'docs', 'security.md'), 'utf8');
    const example = file.vectors.find((x) => x.name === 'post-with-body');
    assert.ok(example);
    for (const value of [
      example.privateKey,
      example.address,
      example.body,
      example.nonce,
      example.eip191Hash,
      `Content-Digest: ${example.contentDigest}`,
      `Signature-Input: ${example.signatureInput}`,
      `Signature: ${example.signature}`,
      ...example.signatureBase.split('\n'),
    ]) {
      assert.ok(doc.includes(value), `docs/security.md lacks ${value}`);
    }
  });

  for (const vector of file.vectors) {
    test(`${vector.name}: the signer produces every value byte for byte`, () => {
      assert.match(vector.privateKey, /^0x[0-9a-f]{64}$/);
      assert.match(vector.address, /^0x[0-9a-f]{40}$/);
      assert.ok(vector.query === '' || vector.query.startsWith('?'));
      const { headers, signatureBase } = signRequestParts({
        method: vector.method,
        url: `https://api.example.org${vector.path}${vector.query}`,
        body: vector.body,
        privateKey: vector.privateKey,
        now: vector.created * 1000,
        nonce: vector.nonce,
        expiresIn: vector.expires - vector.created,
        ...(vector.onBehalfOf === undefined ? {} : { onBehalfOf: vector.onBehalfOf }),
      });
      assert.equal(addressFromPrivateKey(vector.privateKey), vector.address);
      assert.equal(headers['Content-Digest'] ?? null, vector.contentDigest);
      assert.equal(signatureBase, vector.signatureBase);
      assert.equal(`0x${bytesToHex(personalMessageHash(signatureBase))}`, vector.eip191Hash);
      assert.equal(headers['Signature-Input'], vector.signatureInput);
      assert.equal(headers.Signature, vector.signature);
    });

    test(`${vector.name}: the server accepts the request from created to expires, once`, async () => {
      let now = vector.created * 1000;
      const app = new Hono<SignedEnv>();
      app.use('*', requireSignature({ nonces: memoryNonces(), now: () => now }));
      app.all('*', (c) => c.json({ caller: c.var.caller }));
      const send = () =>
        app.request(`http://localhost${vector.path}${vector.query}`, {
          method: vector.method,
          headers: {
            'Signature-Input': vector.signatureInput,
            Signature: vector.signature,
            ...(vector.contentDigest === null ? {} : { 'Content-Digest': vector.contentDigest }),
            ...(vector.onBehalfOf === undefined ? {} : { 'On-Behalf-Of': vector.onBehalfOf }),
          },
          ...(vector.body === '' ? {} : { body: vector.body }),
        });
      const res = await send();
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { caller: vector.address });
      now = vector.expires * 1000;
      const replay = await send();
      assert.equal(replay.status, 401);
      assert.equal(
        ((await replay.json()) as { error: { details: { reason: string } } }).error.details.reason,
        'nonce_reused',
      );
    });
  }
});
