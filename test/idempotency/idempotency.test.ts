import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Hono } from 'hono';
import { SqliteNonceStore } from '../../api/auth/nonce-store';
import type { SignedEnv } from '../../api/auth/require-signature';
import { requireSignature } from '../../api/auth/require-signature';
import { errorBody, toErrorResponse } from '../../api/errors';
import type { IdempotencyScope } from '../../api/idempotency';
import { SqliteIdempotencyStore, idempotency, requestHash } from '../../api/idempotency';
import { ALICE, BOB_KEY, NOW, signed, tempDir } from '../auth/support';

const BODY = JSON.stringify({ price: '1500000' });

/** requireSignature → idempotency → handlers that count their runs. */
function makeApp(path = join(tempDir('idem'), 'idempotency.sqlite')) {
  const dir = tempDir('idem-nonces');
  const nonces = new SqliteNonceStore(join(dir, 'nonces.sqlite'));
  const store = new SqliteIdempotencyStore(path, { now: () => NOW });
  const runs = { quotes: 0, failing: 0, conflicting: 0 };
  let gate: Promise<void> = Promise.resolve();
  const app = new Hono<SignedEnv>();
  app.onError((err, c) => {
    const { status, body } = toErrorResponse(err);
    return c.json(body, status as 500);
  });
  app.use('*', requireSignature({ nonces, now: () => NOW }));
  app.use('*', idempotency({ store }));
  app.post('/quotes', async (c) => {
    runs.quotes += 1;
    const body = (await c.req.json()) as { price: string };
    await gate;
    return c.json({ quoteId: `q-${runs.quotes}`, price: body.price, caller: c.var.caller }, 201);
  });
  app.post('/failing', (c) => {
    runs.failing += 1;
    if (runs.failing === 1) throw new Error('temporal unavailable');
    return c.json({ ok: true });
  });
  app.post('/conflicting', (c) => {
    runs.conflicting += 1;
    return c.json(errorBody('conflict', 'contract is not open'), 409);
  });
  app.get('/quotes', (c) => c.json({ runs: runs.quotes }));
  return {
    app,
    store,
    runs,
    holdHandlers: () => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return open;
    },
  };
}

const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key', () => {
  test('a repeat returns the first answer and the handler runs once', async () => {
    const { app, runs } = makeApp();
    const first = await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-1') }));
    const again = await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-1') }));
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    const expected = { quoteId: 'q-1', price: '1500000', caller: ALICE };
    assert.deepEqual(await first.json(), expected);
    assert.deepEqual(await again.json(), expected);
    assert.equal(first.headers.get('Idempotent-Replayed'), null);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.match(again.headers.get('Content-Type') ?? '', /^application\/json/);
    assert.equal(runs.quotes, 1);
  });

  test('the same key with another body is 422 and runs nothing', async () => {
    const { app, runs } = makeApp();
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-2') }));
    const other = await app.request(
      '/quotes',
      signed('POST', '/quotes', { body: JSON.stringify({ price: '1' }), ...withKey('k-2') }),
    );
    assert.equal(other.status, 422);
    assert.equal(((await other.json()) as { error: { code: string } }).error.code, 'idempotency_key_reused');
    assert.equal(runs.quotes, 1);
  });

  test('without a key every request runs', async () => {
    const { app, runs } = makeApp();
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY }));
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY }));
    assert.equal(runs.quotes, 2);
  });

  test("keys are per caller: Bob's k-3 is not Alice's", async () => {
    const { app, runs } = makeApp();
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-3') }));
    const bob = await app.request(
      '/quotes',
      signed('POST', '/quotes', {
        body: JSON.stringify({ price: '7' }),
        privateKey: BOB_KEY,
        ...withKey('k-3'),
      }),
    );
    assert.equal(bob.status, 201);
    assert.equal(((await bob.json()) as { price: string }).price, '7');
    assert.equal(runs.quotes, 2);
  });

  test('concurrent identical requests: one runs, the other gets 409 in progress, then the saved answer', async () => {
    const { app, runs, holdHandlers } = makeApp();
    const release = holdHandlers();
    const first = app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-4') }));
    while (runs.quotes === 0) await new Promise((resolve) => setImmediate(resolve)); // the first is inside
    const second = await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-4') }));
    assert.equal(second.status, 409);
    assert.equal(second.headers.get('Retry-After'), '1');
    assert.equal(
      ((await second.json()) as { error: { code: string } }).error.code,
      'idempotency_in_progress',
    );
    release();
    assert.equal((await first).status, 201);
    const third = await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-4') }));
    assert.deepEqual(await third.json(), { quoteId: 'q-1', price: '1500000', caller: ALICE });
    assert.equal(runs.quotes, 1);
  });

  test('a 5xx frees the key so a retry runs; a 4xx answer is saved and replayed', async () => {
    const { app, runs } = makeApp();
    const failed = await app.request('/failing', signed('POST', '/failing', withKey('k-5')));
    assert.equal(failed.status, 500);
    assert.deepEqual(await failed.json(), errorBody('internal', 'internal error'));
    const retried = await app.request('/failing', signed('POST', '/failing', withKey('k-5')));
    assert.equal(retried.status, 200);
    assert.equal(runs.failing, 2);

    const refused = await app.request('/conflicting', signed('POST', '/conflicting', withKey('k-6')));
    const replayed = await app.request('/conflicting', signed('POST', '/conflicting', withKey('k-6')));
    assert.deepEqual([refused.status, replayed.status], [409, 409]);
    assert.deepEqual(await replayed.json(), errorBody('conflict', 'contract is not open'));
    assert.equal(runs.conflicting, 1);
  });

  test('the saved answer survives a restart', async () => {
    const path = join(tempDir('idem'), 'idempotency.sqlite');
    const before = makeApp(path);
    await before.app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-7') }));
    before.store.close();
    const after = makeApp(path);
    const res = await after.app.request(
      '/quotes',
      signed('POST', '/quotes', { body: BODY, ...withKey('k-7') }),
    );
    assert.deepEqual(await res.json(), { quoteId: 'q-1', price: '1500000', caller: ALICE });
    assert.equal(after.runs.quotes, 0);
  });

  test('a bad key is 400; reads ignore the header', async () => {
    const { app, runs } = makeApp();
    const bad = await app.request(
      '/quotes',
      signed('POST', '/quotes', { body: BODY, ...withKey('has space') }),
    );
    assert.equal(bad.status, 400);
    assert.equal(runs.quotes, 0);
    const read = await app.request('/quotes', signed('GET', '/quotes', withKey('k-8')));
    assert.deepEqual(await read.json(), { runs: 0 });
  });

  test('the same key on another path is another record', async () => {
    const { app, runs } = makeApp();
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-9') }));
    const other = await app.request('/conflicting', signed('POST', '/conflicting', withKey('k-9')));
    assert.equal(other.status, 409);
    assert.equal(runs.conflicting, 1);
  });
});

describe('SqliteIdempotencyStore', () => {
  const scope: IdempotencyScope = { caller: ALICE, method: 'POST', path: '/quotes', key: 'k' };
  const hash = requestHash('', new TextEncoder().encode(BODY));

  test('a reservation abandoned past its lease is taken over', async () => {
    let now = NOW;
    const store = new SqliteIdempotencyStore(join(tempDir('idem'), 'i.sqlite'), {
      now: () => now,
      leaseMs: 1000,
    });
    assert.deepEqual(await store.reserve(scope, hash), { kind: 'reserved' });
    now += 1000;
    assert.deepEqual(await store.reserve(scope, hash), { kind: 'in_progress' });
    now += 1;
    assert.deepEqual(await store.reserve(scope, hash), { kind: 'reserved' });
    store.close();
  });

  test('answers are pruned after the retention period', async () => {
    let now = NOW;
    const store = new SqliteIdempotencyStore(join(tempDir('idem'), 'i.sqlite'), {
      now: () => now,
      retentionMs: 10_000,
    });
    await store.reserve(scope, hash);
    await store.complete(scope, {
      status: 201,
      contentType: 'application/json',
      body: new Uint8Array([123, 125]),
    });
    now += 10_000;
    assert.equal(store.prune(), 0);
    assert.equal((await store.reserve(scope, hash)).kind, 'replay');
    now += 1;
    assert.equal(store.prune(), 1);
    assert.equal((await store.reserve(scope, hash)).kind, 'reserved');
    store.close();
  });

  test('the query string is part of the request hash', () => {
    const body = new TextEncoder().encode(BODY);
    assert.notEqual(requestHash('?a=1', body), requestHash('?a=2', body));
    assert.notEqual(requestHash('', body), requestHash('', new Uint8Array()));
  });
});
