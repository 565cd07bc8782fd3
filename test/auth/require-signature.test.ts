import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Hono } from 'hono';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { contentDigest } from '../../api/auth/content-digest';
import { addressFromPrivateKey, signPersonalMessage } from '../../api/auth/ethereum';
import { SqliteNonceStore } from '../../store/nonces/sqlite';
import type { SignedEnv } from '../../api/auth/require-signature';
import { requireSignature } from '../../api/auth/require-signature';
import type { SignatureParams } from '../../api/auth/signature-base';
import {
  signatureBase,
  signatureHeader,
  signatureInputHeader,
  signatureParamsValue,
} from '../../api/auth/signature-base';
import { signRequest } from '../../sdk/typescript/signer';
import { ALICE, BOB_KEY, NOW, nextNonce, signed, tempDir } from './support';

const BODY = JSON.stringify({ amount: '2500000', note: 'pay' });

/** A small app: every route needs a signature; POSTs record their effect. */
function makeApp() {
  const dir = tempDir('auth');
  const nonces = new SqliteNonceStore(join(dir, 'nonces.sqlite'), { now: () => NOW });
  const effects: Array<{ path: string; caller: string; body: unknown }> = [];
  const app = new Hono<SignedEnv>();
  app.use('/api/*', requireSignature({ nonces, now: () => NOW }));
  app.get('/api/things', (c) => c.json({ caller: c.var.caller, q: c.req.query('q') ?? null }));
  for (const path of ['/api/things', '/api/other']) {
    app.post(path, async (c) => {
      const body: unknown = await c.req.json();
      effects.push({ path, caller: c.var.caller, body });
      return c.json({ caller: c.var.caller, body }, 201);
    });
  }
  return { app, nonces, effects };
}

interface ErrorJson {
  error: { code: string; message: string; details: { reason: string } };
}

async function assertRefused(res: Response, reason: string) {
  assert.equal(res.status, 401);
  const json = (await res.json()) as ErrorJson;
  assert.equal(json.error.code, 'unauthorized');
  assert.equal(json.error.details.reason, reason, json.error.message);
  assert.ok(json.error.message.length > 0);
}

describe('requireSignature', () => {
  test('a signed GET passes and the caller is the signing address', async () => {
    const { app } = makeApp();
    const res = await app.request('/api/things', signed('GET', '/api/things'));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { caller: ALICE, q: null });
  });

  test('a signed GET with a query covers @query', async () => {
    const { app } = makeApp();
    const init = signed('GET', '/api/things?q=open&x=1');
    assert.match(
      init.headers['Signature-Input'] ?? '',
      /^sig1=\("@method" "@path" "@query"\);created=1700000000;/,
    );
    const res = await app.request('/api/things?q=open&x=1', init);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { caller: ALICE, q: 'open' });
  });

  test('a signed POST passes, and the handler still reads the body', async () => {
    const { app, effects, nonces } = makeApp();
    const init = signed('POST', '/api/things', { body: BODY });
    assert.match(init.headers['Content-Digest'] ?? '', /^sha-256=:[A-Za-z0-9+/]{43}=:$/);
    const res = await app.request('/api/things', init);
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { caller: ALICE, body: JSON.parse(BODY) });
    assert.deepEqual(effects, [{ path: '/api/things', caller: ALICE, body: JSON.parse(BODY) }]);
    assert.equal(nonces.size(), 1);
  });

  test('another key signs as its own address', async () => {
    const { app } = makeApp();
    const res = await app.request('/api/things', signed('GET', '/api/things', { privateKey: BOB_KEY }));
    assert.deepEqual(await res.json(), { caller: addressFromPrivateKey(BOB_KEY), q: null });
  });

  describe('refuses every attack with 401, no effect and no nonce consumed', () => {
    /** Sends `init` to `path` and checks the refusal left the app untouched. */
    async function attack(path: string, init: RequestInit, reason: string) {
      const { app, effects, nonces } = makeApp();
      await assertRefused(await app.request(path, init), reason);
      assert.deepEqual(effects, []);
      assert.equal(nonces.size(), 0);
      return { app, effects, nonces };
    }

    test('unsigned', async () => {
      await attack('/api/things', { method: 'POST', body: BODY }, 'missing_headers');
    });

    test('Signature-Input without Signature', async () => {
      const init = signed('GET', '/api/things');
      delete init.headers.Signature;
      await attack('/api/things', init, 'missing_headers');
    });

    test('malformed Signature-Input', async () => {
      const init = signed('GET', '/api/things', {
        headers: { 'Signature-Input': 'sig1=("@method" "@path"' },
      });
      await attack('/api/things', init, 'malformed');
    });

    test('another label', async () => {
      const init = signed('GET', '/api/things');
      init.headers['Signature-Input'] = (init.headers['Signature-Input'] ?? '').replace(/^sig1=/, 'sig2=');
      init.headers.Signature = (init.headers.Signature ?? '').replace(/^sig1=/, 'sig2=');
      await attack('/api/things', init, 'wrong_label');
    });

    test('bad signature bytes (impossible recovery byte)', async () => {
      const init = signed('GET', '/api/things');
      const bytes = Buffer.from((init.headers.Signature ?? '').slice('sig1=:'.length, -1), 'base64');
      bytes[64] = 35;
      init.headers.Signature = `sig1=:${bytes.toString('base64')}:`;
      await attack('/api/things', init, 'bad_signature');
    });

    test('a signature by another key than keyid', async () => {
      // Bob builds the exact signature base that names Alice as keyid and signs it with his key.
      const url = new URL('http://localhost/api/things');
      const digest = contentDigest(BODY);
      const params: SignatureParams = {
        components: ['@method', '@path', 'content-digest'],
        created: NOW / 1000,
        expires: NOW / 1000 + 60,
        nonce: nextNonce(),
        keyid: ALICE,
      };
      const base = signatureBase(
        { method: 'POST', url, contentDigest: digest },
        params.components,
        signatureParamsValue(params),
      );
      const headers = {
        'Content-Digest': digest,
        'Signature-Input': signatureInputHeader(params),
        Signature: signatureHeader(signPersonalMessage(base, BOB_KEY)),
      };
      await attack('/api/things', { method: 'POST', headers, body: BODY }, 'keyid_mismatch');
    });

    test('expired', async () => {
      const init = signed('GET', '/api/things', { now: NOW - 61_000, expiresIn: 60 });
      await attack('/api/things', init, 'expired');
    });

    test('from the future (beyond the 30 s clock skew)', async () => {
      const init = signed('GET', '/api/things', { now: NOW + 31_000 });
      await attack('/api/things', init, 'created_in_future');
    });

    test('expires more than 300 s after created', async () => {
      const init = signed('GET', '/api/things', { expiresIn: 300 });
      // The signer refuses 301; a hand-made header that claims it is refused by the server.
      init.headers['Signature-Input'] = (init.headers['Signature-Input'] ?? '').replace(
        'expires=1700000300',
        'expires=1700000301',
      );
      await attack('/api/things', init, 'expires_too_far');
    });

    test('tampered body (digest no longer matches)', async () => {
      const init = signed('POST', '/api/things', { body: BODY });
      init.body = BODY.replace('2500000', '9500000');
      await attack('/api/things', init, 'digest_mismatch');
    });

    test('tampered body with a recomputed digest', async () => {
      const init = signed('POST', '/api/things', { body: BODY });
      const other = BODY.replace('2500000', '9500000');
      init.body = other;
      init.headers['Content-Digest'] = signRequest({
        method: 'POST',
        url: '/api/things',
        body: other,
        privateKey: BOB_KEY,
      })['Content-Digest'] as string;
      await attack('/api/things', init, 'keyid_mismatch');
    });

    test('a body whose digest the signature does not cover', async () => {
      const init = signed('POST', '/api/things');
      init.body = BODY;
      await attack('/api/things', init, 'missing_component');
    });

    test('the same signed body sent to another path', async () => {
      await attack('/api/other', signed('POST', '/api/things', { body: BODY }), 'keyid_mismatch');
    });

    test('another method on the same path', async () => {
      const init = signed('DELETE', '/api/things');
      await attack('/api/things', { ...init, method: 'POST' }, 'keyid_mismatch');
    });

    test('query changed', async () => {
      await attack('/api/things?q=closed', signed('GET', '/api/things?q=open'), 'keyid_mismatch');
    });

    test('query added to a request signed without one', async () => {
      await attack('/api/things?q=open', signed('GET', '/api/things'), 'missing_component');
    });

    test('uppercase keyid', async () => {
      const init = signed('GET', '/api/things');
      init.headers['Signature-Input'] = (init.headers['Signature-Input'] ?? '').replace(
        ALICE,
        ALICE.toUpperCase(),
      );
      await attack('/api/things', init, 'malformed');
    });

    test('an unsupported component or parameter', async () => {
      const init = signed('GET', '/api/things');
      const withAuthority = (init.headers['Signature-Input'] ?? '').replace(
        '"@path"',
        '"@path" "@authority"',
      );
      await attack(
        '/api/things',
        { ...init, headers: { ...init.headers, 'Signature-Input': withAuthority } },
        'malformed',
      );
      const withAlg = `${init.headers['Signature-Input']};alg="rsa-pss-sha512"`;
      await attack(
        '/api/things',
        { ...init, headers: { ...init.headers, 'Signature-Input': withAlg } },
        'malformed',
      );
    });
  });

  test('a refused request does not burn its nonce; the valid one then passes once', async () => {
    const { app, effects } = makeApp();
    const nonce = nextNonce();
    const valid = signed('POST', '/api/things', { body: BODY, nonce });
    await assertRefused(
      await app.request('/api/things', { ...valid, body: '{"amount":"1"}' }),
      'digest_mismatch',
    );
    assert.equal((await app.request('/api/things', valid)).status, 201);
    await assertRefused(await app.request('/api/things', valid), 'nonce_reused');
    assert.equal(effects.length, 1);
  });

  test('a reused nonce is refused even with a fresh signature over another request', async () => {
    const { app, effects } = makeApp();
    const nonce = nextNonce();
    assert.equal(
      (await app.request('/api/things', signed('POST', '/api/things', { body: BODY, nonce }))).status,
      201,
    );
    const again = signed('POST', '/api/other', { body: '{"x":1}', nonce });
    await assertRefused(await app.request('/api/other', again), 'nonce_reused');
    assert.equal(effects.length, 1);
  });

  test('signatures within the clock skew and up to expiry pass', async () => {
    const { app } = makeApp();
    assert.equal(
      (await app.request('/api/things', signed('GET', '/api/things', { now: NOW + 30_000 }))).status,
      200,
    );
    const lastSecond = signed('GET', '/api/things', { now: NOW - 60_000, expiresIn: 60 });
    assert.equal((await app.request('/api/things', lastSecond)).status, 200);
  });

  test('works in front of @hono/zod-openapi json validators', async () => {
    const dir = tempDir('auth-openapi');
    const nonces = new SqliteNonceStore(join(dir, 'nonces.sqlite'));
    const app = new OpenAPIHono<SignedEnv>();
    app.use('/quotes', requireSignature({ nonces, now: () => NOW }));
    const route = createRoute({
      method: 'post',
      path: '/quotes',
      request: {
        body: {
          content: {
            'application/json': { schema: z.object({ price: z.string().regex(/^\d+$/) }).strict() },
          },
        },
      },
      responses: { 201: { description: 'created' } },
    });
    app.openapi(route, (c) => c.json({ caller: c.var.caller, price: c.req.valid('json').price }, 201));
    const body = JSON.stringify({ price: '1500000' });
    const res = await app.request('/quotes', signed('POST', '/quotes', { body }));
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { caller: ALICE, price: '1500000' });
    const invalid = await app.request('/quotes', signed('POST', '/quotes', { body: '{"price":1}' }));
    assert.equal(invalid.status, 400);
    nonces.close();
  });
});
