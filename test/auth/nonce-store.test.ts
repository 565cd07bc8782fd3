import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Hono } from 'hono';
import { SqliteNonceStore } from '../../api/auth/nonce-store';
import { requireSignature } from '../../api/auth/require-signature';
import { ALICE, NOW, nextNonce, signed, tempDir } from './support';

const BOB = '0x0000000000000000000000000000000000000b0b';
const EXPIRES = NOW / 1000 + 60;

describe('SqliteNonceStore', () => {
  test('a nonce is consumed once per keyid', async () => {
    const store = new SqliteNonceStore(join(tempDir('nonces'), 'n.sqlite'), { now: () => NOW });
    assert.equal(await store.consume(ALICE, 'nonce-aaaaaaaaaaaa', EXPIRES), true);
    assert.equal(await store.consume(ALICE, 'nonce-aaaaaaaaaaaa', EXPIRES), false);
    assert.equal(await store.consume(BOB, 'nonce-aaaaaaaaaaaa', EXPIRES), true);
    assert.equal(store.size(), 2);
    store.close();
  });

  test('a used nonce stays used across a restart', async () => {
    const path = join(tempDir('nonces'), 'n.sqlite');
    const first = new SqliteNonceStore(path, { now: () => NOW });
    assert.equal(await first.consume(ALICE, 'nonce-bbbbbbbbbbbb', EXPIRES), true);
    first.close();
    const second = new SqliteNonceStore(path, { now: () => NOW });
    assert.equal(await second.consume(ALICE, 'nonce-bbbbbbbbbbbb', EXPIRES), false);
    second.close();
  });

  test('a replayed request is refused by an app restarted on the same file', async () => {
    const path = join(tempDir('nonces'), 'n.sqlite');
    const request = signed('GET', '/x');
    const statuses: number[] = [];
    for (let run = 0; run < 2; run++) {
      const nonces = new SqliteNonceStore(path, { now: () => NOW });
      const app = new Hono().use(requireSignature({ nonces, now: () => NOW })).get('/x', (c) => c.text('ok'));
      statuses.push((await app.request('/x', request)).status);
      nonces.close();
    }
    assert.deepEqual(statuses, [200, 401]);
  });

  test('nonces are pruned only after expiry plus the retention margin', async () => {
    let now = NOW;
    const store = new SqliteNonceStore(join(tempDir('nonces'), 'n.sqlite'), {
      now: () => now,
      retentionMarginSeconds: 60,
    });
    await store.consume(ALICE, nextNonce(), EXPIRES);
    await store.consume(ALICE, nextNonce(), EXPIRES + 240);
    now = (EXPIRES + 60) * 1000;
    assert.equal(store.prune(), 0);
    now = (EXPIRES + 61) * 1000;
    assert.equal(store.prune(), 1);
    assert.equal(store.size(), 1);
    store.close();
  });

  test('consume prunes on its own at most once per interval', async () => {
    let now = NOW;
    const store = new SqliteNonceStore(join(tempDir('nonces'), 'n.sqlite'), {
      now: () => now,
      retentionMarginSeconds: 0,
      pruneIntervalSeconds: 60,
    });
    const t0 = NOW / 1000;
    await store.consume(ALICE, nextNonce(), t0 + 10); // prunes at t0 (nothing to prune yet)
    now = (t0 + 30) * 1000;
    await store.consume(ALICE, nextNonce(), t0 + 300);
    assert.equal(store.size(), 2, 'no prune within the interval, though the first nonce is past retention');
    now = (t0 + 60) * 1000;
    await store.consume(ALICE, nextNonce(), t0 + 300);
    assert.equal(store.size(), 2, 'the expired nonce went, the new one came');
    store.close();
  });
});
