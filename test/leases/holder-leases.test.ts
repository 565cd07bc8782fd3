// Leases that follow their holder (store/lease.ts): an Idempotency-Key reservation (both stores) and an
// event-stream slot (PostgreSQL) stay held while their process's heartbeat renews them, free within the
// lease once it stops, and a graceful stop gives them back at once. A holder whose key was taken over can
// neither save an answer for it nor release it. On PostgreSQL a killed process's rows free at once: its presence
// lock (store/postgres/presence.ts) went with its connection.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { test } from 'node:test';
import { requestHash } from '../../api/http/idempotency';
import type { IdempotencyScope } from '../../store/idempotency';
import { PostgresIdempotencyStore } from '../../store/idempotency/postgres';
import { holderGone, HolderPresence, PRESENCE_LOCK_SPACE } from '../../store/postgres/presence';
import { HolderHeartbeat } from '../../store/lease';
import { PostgresStreamSlots } from '../../store/rate-limit/postgres';
import { streamSlotLeases } from '../../store/stream-caps/leases';
import { describeEachApiStore } from '../auth/api-stores';
import { ALICE, NOW } from '../auth/support';

const scope: IdempotencyScope = { caller: ALICE, method: 'POST', path: '/quotes', key: 'k' };
const hash = requestHash('', new TextEncoder().encode('{}'));
const answer = (status: number) => ({ status, contentType: null, body: new Uint8Array() });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeEachApiStore('idempotency leases', (stores) => {
  test('a reservation its holder renews never lapses; unrenewed, another process takes it over after the lease', async () => {
    let now = NOW;
    const place = stores.place();
    const options = { now: () => now, leaseMs: 1000 };
    const one = await stores.idempotency(place, { ...options, holder: 'api-1' });
    const two = await stores.idempotency(place, { ...options, holder: 'api-2' });
    const leases = one.store.leases;
    assert.deepEqual(await one.store.reserve(scope, hash), { kind: 'reserved' });
    for (let beat = 0; beat < 5; beat++) {
      now += 900;
      await leases.renew('api-1', now);
      assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'in_progress' }, `beat ${beat}`);
    }
    now += 1000;
    assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'in_progress' }, 'not yet past the lease');
    now += 1;
    assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'reserved' }, 'taken over');

    // The old holder, late: its renewal, answer and release leave the new holder's reservation alone.
    await leases.renew('api-1', now + 5000);
    await one.store.complete(scope, answer(500));
    await one.store.release(scope);
    assert.deepEqual(await one.store.reserve(scope, hash), { kind: 'in_progress' });
    await two.store.complete(scope, answer(201));
    assert.deepEqual(await one.store.reserve(scope, hash), { kind: 'replay', answer: answer(201) });
    await Promise.all([one.close(), two.close()]);
  });

  test('the heartbeat keeps a long request’s key; halted, the key frees within the lease; stop() gives keys back', async () => {
    const place = stores.place();
    const settings = { leaseMs: 400, renewEveryMs: 50 };
    const one = await stores.idempotency(place, { holder: 'api-1', leaseMs: settings.leaseMs });
    const two = await stores.idempotency(place, { holder: 'api-2', leaseMs: settings.leaseMs });
    const rows = [one.store.leases];
    const heartbeat = new HolderHeartbeat({ holder: 'api-1', rows, settings }).start();
    assert.deepEqual(await one.store.reserve(scope, hash), { kind: 'reserved' });
    await sleep(1000); // a request running for 2.5 leases
    assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'in_progress' });

    heartbeat.halt(); // the holder dies
    await sleep(settings.leaseMs + 100);
    assert.deepEqual(await two.store.reserve(scope, hash), { kind: 'reserved' });

    // A graceful stop: every key still held is free at once, answered ones stay answered.
    const again = new HolderHeartbeat({ holder: 'api-1', rows, settings }).start();
    const keys = ['a', 'b', 'c'].map((key) => ({ ...scope, key }));
    for (const key of keys) assert.deepEqual(await one.store.reserve(key, hash), { kind: 'reserved' });
    await one.store.complete(keys[0]!, answer(201));
    assert.equal(await again.stop(), 2);
    assert.deepEqual(await two.store.reserve(keys[0]!, hash), { kind: 'replay', answer: answer(201) });
    for (const key of keys.slice(1)) {
      assert.deepEqual(await two.store.reserve(key, hash), { kind: 'reserved' });
    }
    await Promise.all([one.close(), two.close()]);
  });
});

describeEachApiStore('event-stream slot leases', (stores) => {
  // In SQLite (one process) stream slots live in memory and go with their process.
  if (stores.kind !== 'postgres') return;

  test("a live process's slots stay while its heartbeat renews them; a dead one's free within the lease", async () => {
    const place = stores.place();
    let now = 1_000_000;
    const leaseMs = 1000;
    const open = async (holder: string) => {
      const pool = await stores.pool(place);
      const slots = await PostgresStreamSlots.open(pool, { now: () => now, ttlMs: leaseMs, holder });
      return { slots, leases: streamSlotLeases(pool, leaseMs) };
    };
    const [a, b] = [await open('api-a'), await open('api-b')];
    const caps = { perCaller: 5, total: 2 };
    assert.ok(await a.slots.acquire('agent:x', caps));
    assert.ok(await b.slots.acquire('agent:y', caps));
    for (let beat = 0; beat < 5; beat++) {
      now += 900;
      await a.leases.renew('api-a', now);
      await b.leases.renew('api-b', now);
    }
    assert.equal(await a.slots.acquire('agent:z', caps), undefined, 'both slots renewed by their holders');
    now += 900;
    await a.leases.renew('api-a', now); // api-b is dead: no more beats
    now += 200;
    assert.ok(await a.slots.acquire('agent:z', caps), "the dead process's slot freed");
    assert.equal(await b.slots.acquire('agent:w', caps), undefined, 'the live one did not');
    // A graceful stop gives every slot back at once.
    assert.equal(await a.leases.releaseAll('api-a'), 2);
    assert.ok(await b.slots.acquire('agent:w', caps));
  });
});

describeEachApiStore('presence: a killed process’s leases free at once', (stores) => {
  if (stores.kind !== 'postgres') return;

  test('a SIGKILLed API process’s key and stream slot are taken over within a second, not after the lease', async () => {
    const place = stores.place();
    const config = stores.ledgerConfigAt(place);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, 'support', 'holding-process.ts'),
        JSON.stringify({ connectionString: config.connectionString, schema: config.schema }),
        JSON.stringify(scope),
        hash,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the holding process exited with ${code}`)));
    });
    assert.match(out, /^ready /);

    // Judged with a minute's lease: only the holder's presence can free its rows within this test.
    const pool = await stores.pool(place);
    const two = await PostgresIdempotencyStore.open(pool, { holder: 'api-2', leaseMs: 60_000 });
    const slots = await PostgresStreamSlots.open(pool, { holder: 'api-2', ttlMs: 60_000 });
    const caps = { perCaller: 1, total: 1 };
    await sleep(1500); // the live holder's rows hold past a heartbeat or two
    assert.deepEqual(await two.reserve(scope, hash), { kind: 'in_progress' }, 'alive: its key stays its own');
    assert.equal(await slots.acquire('agent:other', caps), undefined, 'alive: its slot stays its own');

    child.kill('SIGKILL');
    await exited;
    const killed = Date.now();
    let reservation = await two.reserve(scope, hash);
    while (reservation.kind === 'in_progress' && Date.now() - killed < 5_000) {
      await sleep(50);
      reservation = await two.reserve(scope, hash);
    }
    const tookMs = Date.now() - killed;
    assert.deepEqual(reservation, { kind: 'reserved' }, 'the dead holder’s key is taken over');
    assert.ok(tookMs < 1_000, `taken over ${tookMs} ms after the kill`);
    assert.ok(await slots.acquire('agent:other', caps), 'the dead holder’s slot freed');
  });
  test('a presence whose connection drops is taken back within a second; a closed one leaves the list', async () => {
    const place = stores.place();
    const config = stores.ledgerConfigAt(place);
    assert.equal(config.kind, 'postgres');
    const pool = await stores.pool(place);
    const warnings: string[] = [];
    const presence = await HolderPresence.take({
      connection: { connectionString: config.connectionString! },
      pool,
      holder: 'api-live',
      warn: (m) => warnings.push(m),
      reconnectMs: 200,
    });
    assert.equal(await holderGone(pool, 'api-live'), false, 'alive');
    assert.equal(
      await holderGone(pool, 'api-never-listed'),
      false,
      'a holder without presence waits for its lease',
    );

    // PostgreSQL ends the presence session (a proxy or an operator could): gone until it reconnects.
    await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1`,
      [PRESENCE_LOCK_SPACE],
    );
    await sleep(100);
    assert.equal(await holderGone(pool, 'api-live'), true, 'its lock went with its session');
    let back = false;
    for (let i = 0; i < 20 && !back; i++) {
      await sleep(100);
      back = !(await holderGone(pool, 'api-live'));
    }
    assert.ok(back, 'the lock is held again');
    assert.match(warnings.join('\n'), /presence of api-live lost/);

    await presence.close();
    const { rows } = await pool.query('SELECT holder FROM api_lease_holders');
    assert.deepEqual(rows, [], 'a closed presence leaves the list');
  });
});
