import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { requireSignature } from '../../api/auth/require-signature';
import { describeEachApiStore } from './api-stores';
import { ALICE, NOW, nextNonce, signed } from './support';

const BOB = '0x0000000000000000000000000000000000000b0b';
const EXPIRES = NOW / 1000 + 60;

describeEachApiStore('nonce store', (stores) => {
  test('a nonce is consumed once per keyid', async () => {
    const { store, size, close } = await stores.nonces(stores.place(), { now: () => NOW });
    assert.equal(await store.consume(ALICE, 'nonce-aaaaaaaaaaaa', EXPIRES), true);
    assert.equal(await store.consume(ALICE, 'nonce-aaaaaaaaaaaa', EXPIRES), false);
    assert.equal(await store.consume(BOB, 'nonce-aaaaaaaaaaaa', EXPIRES), true);
    assert.equal(await size(), 2);
    await close();
  });

  test('a used nonce stays used across a restart', async () => {
    const place = stores.place();
    const first = await stores.nonces(place, { now: () => NOW });
    assert.equal(await first.store.consume(ALICE, 'nonce-bbbbbbbbbbbb', EXPIRES), true);
    await first.close();
    const second = await stores.nonces(place, { now: () => NOW });
    assert.equal(await second.store.consume(ALICE, 'nonce-bbbbbbbbbbbb', EXPIRES), false);
    await second.close();
  });

  test('a nonce consumed through one process is refused through another, also when both race', async () => {
    const place = stores.place();
    const one = await stores.nonces(place, { now: () => NOW });
    const two = await stores.nonces(place, { now: () => NOW });
    assert.equal(await one.store.consume(ALICE, 'nonce-cccccccccccc', EXPIRES), true);
    assert.equal(await two.store.consume(ALICE, 'nonce-cccccccccccc', EXPIRES), false);

    const nonces = Array.from({ length: 20 }, () => nextNonce());
    const results = await Promise.all(
      nonces.flatMap((nonce) => [one, two].map(({ store }) => store.consume(ALICE, nonce, EXPIRES))),
    );
    for (let i = 0; i < nonces.length; i++) {
      assert.equal([results[2 * i], results[2 * i + 1]].filter(Boolean).length, 1, `exactly one for ${i}`);
    }
    assert.equal(await one.size(), 21);
    await Promise.all([one.close(), two.close()]);
  });

  test('a replayed request is refused by another app on the same store (restart or second host)', async () => {
    const place = stores.place();
    const request = signed('GET', '/x');
    const statuses: number[] = [];
    for (let run = 0; run < 2; run++) {
      const { store: nonces, close } = await stores.nonces(place, { now: () => NOW });
      const app = new Hono().use(requireSignature({ nonces, now: () => NOW })).get('/x', (c) => c.text('ok'));
      statuses.push((await app.request('/x', request)).status);
      await close();
    }
    assert.deepEqual(statuses, [200, 401]);
  });

  test('nonces are pruned only after expiry plus the retention margin', async () => {
    let now = NOW;
    const { store, prune, size, close } = await stores.nonces(stores.place(), {
      now: () => now,
      retentionMarginSeconds: 60,
    });
    await store.consume(ALICE, nextNonce(), EXPIRES);
    await store.consume(ALICE, nextNonce(), EXPIRES + 240);
    now = (EXPIRES + 60) * 1000;
    assert.equal(await prune(), 0);
    now = (EXPIRES + 61) * 1000;
    assert.equal(await prune(), 1);
    assert.equal(await size(), 1);
    await close();
  });

  test('consume prunes on its own at most once per interval', async () => {
    let now = NOW;
    const { store, size, close } = await stores.nonces(stores.place(), {
      now: () => now,
      retentionMarginSeconds: 0,
      pruneIntervalSeconds: 60,
    });
    const t0 = NOW / 1000;
    await store.consume(ALICE, nextNonce(), t0 + 10); // prunes at t0 (nothing to prune yet)
    now = (t0 + 30) * 1000;
    await store.consume(ALICE, nextNonce(), t0 + 300);
    assert.equal(await size(), 2, 'no prune within the interval, though the first nonce is past retention');
    now = (t0 + 60) * 1000;
    await store.consume(ALICE, nextNonce(), t0 + 300);
    assert.equal(await size(), 2, 'the expired nonce went, the new one came');
    await close();
  });
});
