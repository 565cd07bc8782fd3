import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Hono } from 'hono';
import { SqliteNonceStore } from '../../store/nonces/sqlite';
import type { SignedEnv } from '../../api/auth/require-signature';
import { requireSignature } from '../../api/auth/require-signature';
import { errorBody, toErrorResponse } from '../../api/errors';
import type { IdempotencyScope } from '../../store/idempotency';
import { idempotency, requestHash } from '../../api/http/idempotency';
import type { ApiStoreHarness, StorePlace } from '../auth/api-stores';
import { describeEachApiStore } from '../auth/api-stores';
import { ALICE, BOB_KEY, NOW, signed, tempDir } from '../auth/support';

const BODY = JSON.stringify({ price: '1500000' });

/** requireSignature → idempotency (on `place`, a new one by default) → handlers that count their runs. */
async function makeApp(stores: ApiStoreHarness, place: StorePlace = stores.place()) {
  const dir = tempDir('idem-nonces');
  const nonces = new SqliteNonceStore(join(dir, 'nonces.sqlite'));
  const { store, close } = await stores.idempotency(place, { now: () => NOW });
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
    close,
    runs,
    holdHandlers: () => {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return open;
    },
  };
}

const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describeEachApiStore('Idempotency-Key', (stores) => {
  test('a repeat returns the first answer and the handler runs once', async () => {
    const { app, runs } = await makeApp(stores);
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
    const { app, runs } = await makeApp(stores);
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
    const { app, runs } = await makeApp(stores);
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY }));
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY }));
    assert.equal(runs.quotes, 2);
  });

  test("keys are per caller: Bob's k-3 is not Alice's", async () => {
    const { app, runs } = await makeApp(stores);
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
    const { app, runs, holdHandlers } = await makeApp(stores);
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
    const { app, runs } = await makeApp(stores);
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
    const place = stores.place();
    const before = await makeApp(stores, place);
    await before.app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-7') }));
    await before.close();
    const after = await makeApp(stores, place);
    const res = await after.app.request(
      '/quotes',
      signed('POST', '/quotes', { body: BODY, ...withKey('k-7') }),
    );
    assert.deepEqual(await res.json(), { quoteId: 'q-1', price: '1500000', caller: ALICE });
    assert.equal(after.runs.quotes, 0);
  });

  test('a bad key is 400; reads ignore the header', async () => {
    const { app, runs } = await makeApp(stores);
    const bad = await app.request(
      '/quotes',
      signed('POST', '/quotes', { body: BODY, ...withKey('has space') }),
    );
    assert.equal(bad.status, 400);
    assert.equal(runs.quotes, 0);
    const read = await app.request('/quotes', signed('GET', '/quotes', withKey('k-8')));
    assert.deepEqual(await read.json(), { runs: 0 });
  });

  test('two API processes on one store: a key reserved by one is in progress, then replayed, by the other', async () => {
    const place = stores.place();
    const one = await makeApp(stores, place);
    const two = await makeApp(stores, place);
    const release = one.holdHandlers();
    const first = one.app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-10') }));
    while (one.runs.quotes === 0) await new Promise((resolve) => setImmediate(resolve));
    const meanwhile = await two.app.request(
      '/quotes',
      signed('POST', '/quotes', { body: BODY, ...withKey('k-10') }),
    );
    assert.equal(meanwhile.status, 409);
    release();
    assert.equal((await first).status, 201);
    const replayed = await two.app.request(
      '/quotes',
      signed('POST', '/quotes', { body: BODY, ...withKey('k-10') }),
    );
    assert.equal(replayed.headers.get('Idempotent-Replayed'), 'true');
    assert.deepEqual(await replayed.json(), { quoteId: 'q-1', price: '1500000', caller: ALICE });
    const other = await two.app.request(
      '/quotes',
      signed('POST', '/quotes', { body: JSON.stringify({ price: '2' }), ...withKey('k-10') }),
    );
    assert.equal(other.status, 422);
    assert.deepEqual([one.runs.quotes, two.runs.quotes], [1, 0]);
    await Promise.all([one.close(), two.close()]);
  });

  test('the same key on another path is another record', async () => {
    const { app, runs } = await makeApp(stores);
    await app.request('/quotes', signed('POST', '/quotes', { body: BODY, ...withKey('k-9') }));
    const other = await app.request('/conflicting', signed('POST', '/conflicting', withKey('k-9')));
    assert.equal(other.status, 409);
    assert.equal(runs.conflicting, 1);
  });
});

describeEachApiStore('idempotency store', (stores) => {
  const scope: IdempotencyScope = { caller: ALICE, method: 'POST', path: '/quotes', key: 'k' };
  const hash = requestHash('', new TextEncoder().encode(BODY));
  const answer = { status: 201, contentType: 'application/json', body: new Uint8Array([123, 125]) };

  test('a reservation abandoned past its lease is taken over', async () => {
    let now = NOW;
    const { store, close } = await stores.idempotency(stores.place(), { now: () => now, leaseMs: 1000 });
    assert.deepEqual(await store.reserve(scope, hash), { kind: 'reserved' });
    now += 1000;
    assert.deepEqual(await store.reserve(scope, hash), { kind: 'in_progress' });
    now += 1;
    assert.deepEqual(await store.reserve(scope, hash), { kind: 'reserved' });
    assert.deepEqual(
      await store.reserve(scope, hash),
      { kind: 'in_progress' },
      'the take-over renewed the lease',
    );
    await close();
  });

  test('answers are pruned after the retention period', async () => {
    let now = NOW;
    const { store, prune, close } = await stores.idempotency(stores.place(), {
      now: () => now,
      retentionMs: 10_000,
    });
    await store.reserve(scope, hash);
    await store.complete(scope, answer);
    now += 10_000;
    assert.equal(await prune(), 0);
    assert.equal((await store.reserve(scope, hash)).kind, 'replay');
    now += 1;
    assert.equal(await prune(), 1);
    assert.equal((await store.reserve(scope, hash)).kind, 'reserved');
    await close();
  });

  test('a key reserved through one instance is seen by another; a release frees it for both', async () => {
    const place = stores.place();
    const one = await stores.idempotency(place, { now: () => NOW });
    const two = await stores.idempotency(place, { now: () => NOW });
    assert.deepEqual(await one.store.reserve(scope, hash), { kind: 'reserved' });
    assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'in_progress' });
    assert.deepEqual(await two.store.reserve(scope, 'another-hash'), { kind: 'mismatch' });
    await one.store.release(scope);
    assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'reserved' });
    await two.store.complete(scope, answer);
    assert.deepEqual(await one.store.reserve(scope, hash), { kind: 'replay', answer });
    await Promise.all([one.close(), two.close()]);
  });

  test('of concurrent reservations of one key from two instances exactly one wins, also on a take-over', async () => {
    let now = NOW;
    const place = stores.place();
    const options = { now: () => now, leaseMs: 1000 };
    const one = await stores.idempotency(place, options);
    const two = await stores.idempotency(place, options);
    const keys = Array.from({ length: 10 }, (_, i) => ({ ...scope, key: `race-${i}` }));
    const race = () =>
      Promise.all(keys.flatMap((key) => [one, two].map(({ store }) => store.reserve(key, hash))));
    const winners = (results: Array<{ kind: string }>) =>
      keys.map((_, i) => [results[2 * i], results[2 * i + 1]].filter((r) => r?.kind === 'reserved').length);
    assert.deepEqual(winners(await race()), Array<number>(keys.length).fill(1));
    now += 1001; // every reservation is now abandoned
    assert.deepEqual(winners(await race()), Array<number>(keys.length).fill(1));
    await Promise.all([one.close(), two.close()]);
  });
});

describe('requestHash', () => {
  test('the query string is part of the request hash', () => {
    const body = new TextEncoder().encode(BODY);
    assert.notEqual(requestHash('?a=1', body), requestHash('?a=2', body));
    assert.notEqual(requestHash('', body), requestHash('', new Uint8Array()));
  });
});
