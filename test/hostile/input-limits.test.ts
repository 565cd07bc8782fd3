// Inputs that used to answer 5xx, sent through the API on the real stack: a body nested thousands deep
// (the canonical JSON recursed until the stack overflowed), a forged listing cursor (Temporal retried
// the made-up page token for seconds, then 500), an agent's concurrent eligibility unlocks (raced for
// the same holds), and a withdrawal destination with a line break and a bidi override (shown verbatim to
// the operator). Each is a clear 4xx or a serialized success, nothing changes on a refusal, and the
// honest party's next step succeeds with exact balances.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usdc } from '../support/balances';
import {
  BA_FUNDS,
  contractBody,
  DELIVERY_REF,
  ELIGIBILITY_STAKE,
  FUNDS,
  newAgent,
  PRICE,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import { OPERATOR_TOKEN, useAppHarness } from '../support/service';
import { call, matchedContract } from '../api/support';
import { MAX_JSON_DEPTH } from '../../api/http/json-depth';

const h = useAppHarness();

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

test('a delivery whose content nests 20,000 deep: 400 body_too_deep, nothing stored; the real delivery then goes through', async () => {
  const m = await matchedContract(h());
  const path = `/contracts/${m.id}/deliveries`;
  // Built as text: JSON.stringify itself would recurse 20,000 deep.
  const raw = `{"uri":"${DELIVERY_REF.uri}","sha256":"${DELIVERY_REF.sha256}","key":"k","content":{"a":${'['.repeat(20_000)}1${']'.repeat(20_000)}}}`;
  const deep = await call(h().app, m.worker, 'POST', path, { rawBody: raw });
  assert.equal(deep.status, 400, deep.text);
  assert.equal(deep.json.error.code, 'body_too_deep');
  // The limit itself: one level under it passes the depth check (content is an object of arrays).
  const atLimit = await call(h().app, m.worker, 'POST', path, {
    body: { ...DELIVERY_REF, content: { a: nested(MAX_JSON_DEPTH + 1) } },
  });
  assert.equal(atLimit.json.error.code, 'body_too_deep');
  const view = await call(h().app, m.client, 'GET', `/contracts/${m.id}`);
  assert.equal(view.json.status, 'matched');
  assert.equal(view.json.delivery ?? null, null);

  const delivered = await call(h().app, m.worker, 'POST', path, {
    body: { ...DELIVERY_REF, content: { a: nested(MAX_JSON_DEPTH - 2) } },
  });
  assert.equal(delivered.status, 200, delivered.text);
  assert.equal(delivered.json.status, 'under-review');
  assert.deepEqual(await usdc(h(), m.client), [FUNDS - PRICE, PRICE]);
});

test('deep bodies on every other route: 400 body_too_deep, never 5xx', async () => {
  const agent = newAgent();
  const deep = `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
  for (const path of [
    '/contracts',
    '/eligibility/lock',
    `/agents/${agent.address}/withdrawals`,
    '/contracts/x/quotes',
  ]) {
    const res = await call(h().app, agent, 'POST', path, { rawBody: deep });
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.equal(res.json.error.code, 'body_too_deep');
  }
  // Brackets inside strings are text, not nesting.
  const text = await call(h().app, agent, 'POST', '/eligibility/lock', {
    body: { amount: '1', note: '['.repeat(1000) },
  });
  assert.equal(text.status, 400);
  assert.equal(text.json.error.code, 'invalid_input');
});

test('a forged listing cursor: a quick 400 naming it, Temporal never asked; a real cursor still pages', async () => {
  const forged = [
    Buffer.from(JSON.stringify({ filter: '[null,null]', source: 'open', token: 'AAAA' })).toString(
      'base64url',
    ),
    'eyJmaWx0ZXIiOiJbbnVsbCxudWxsXSJ9.AAAAAAAAAAAAAAAAAAAAAA',
    'a.b.c',
    '.',
  ];
  for (const cursor of forged) {
    const started = Date.now();
    const res = await call(h().app, undefined, 'GET', `/contracts?cursor=${encodeURIComponent(cursor)}`);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.error.details.fields[0].field, 'cursor');
    assert.ok(Date.now() - started < 1_000, 'refused before reaching Temporal');
  }
  const client = newAgent();
  await h().fund(client.address, FUNDS);
  for (let i = 0; i < 2; i++) {
    const created = await call(h().app, client, 'POST', '/contracts', {
      body: contractBody(undefined),
    });
    assert.equal(created.status, 201, created.text);
  }
  const first = await call(h().app, undefined, 'GET', '/contracts?limit=1');
  assert.equal(first.status, 200);
  assert.equal(typeof first.json.nextCursor, 'string');
  const next = await call(h().app, undefined, 'GET', `/contracts?limit=1&cursor=${first.json.nextCursor}`);
  assert.equal(next.status, 200, next.text);
  assert.equal(next.json.contracts.length, 1);
});

test('concurrent eligibility unlocks by one agent: served one after another, never 5xx, the stake released once', async () => {
  const agent = newAgent();
  await h().fund(agent.address, BA_FUNDS);
  const locked = await call(h().app, agent, 'POST', '/eligibility/lock', {
    body: { amount: ELIGIBILITY_STAKE.toString() },
  });
  assert.equal(locked.status, 200, locked.text);
  for (let round = 0; round < 3; round++) {
    const unlocks = await Promise.all(
      Array.from({ length: 4 }, () => call(h().app, agent, 'POST', '/eligibility/unlock', { body: {} })),
    );
    assert.deepEqual(
      unlocks.map((u) => u.status),
      [200, 200, 200, 200],
      unlocks.map((u) => u.text).join('\n'),
    );
    const released = unlocks.map((u) => BigInt(u.json.released)).reduce((a, b) => a + b, 0n);
    assert.equal(released, ELIGIBILITY_STAKE);
    assert.deepEqual(await usdc(h(), agent), [BA_FUNDS, 0n]);
    const relock = await Promise.all(
      Array.from({ length: 2 }, () =>
        call(h().app, agent, 'POST', '/eligibility/lock', {
          body: { amount: (ELIGIBILITY_STAKE / 2n).toString() },
        }),
      ),
    );
    assert.deepEqual(
      relock.map((r) => r.status),
      [200, 200],
    );
  }
});

test('a withdrawal destination with a line break or a bidi override: 400 naming it, nothing recorded; a printable one is paid', async () => {
  const agent = newAgent();
  await h().fund(agent.address, FUNDS);
  const path = `/agents/${agent.address}/withdrawals`;
  const bad = ['acct 1\nPAID: 0xattacker', 'acct\u202E1', 'x'.repeat(201), '\u0000', 'Zürich 1'];
  for (const [i, destination] of bad.entries()) {
    const res = await call(h().app, agent, 'POST', path, {
      body: { amount: '1000000', destination },
      headers: { 'Idempotency-Key': `bad-${i}` },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.error.details.fields[0].field, 'destination');
  }
  assert.deepEqual((await call(h().app, agent, 'GET', path)).json, { payouts: [] });
  assert.deepEqual(await usdc(h(), agent), [FUNDS, 0n]);

  const ok = await call(h().app, agent, 'POST', path, {
    body: { amount: '1000000', destination: 'iban:DE89 3704 0044 0532 0130 00' },
    headers: { 'Idempotency-Key': 'good' },
  });
  assert.equal(ok.status, 201, ok.text);
  const queue = await call(h().app, undefined, 'GET', '/operator/payouts', {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  const mine = queue.json.payouts.filter((p: { address: string }) => p.address === agent.address);
  assert.deepEqual(
    mine.map((p: { destination: string }) => p.destination),
    ['iban:DE89 3704 0044 0532 0130 00'],
  );
  assert.deepEqual(await usdc(h(), agent), [FUNDS - 1_000_000n, 0n]);
});

test('a keyed accept refused 402 stays that key’s answer after a deposit; a new key then accepts, the stake held once', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(undefined) });
  assert.equal(created.status, 201, created.text);
  const path = `/contracts/${created.json.contractId}/accept`;
  const first = await call(h().app, worker, 'POST', path, {
    body: {},
    headers: { 'Idempotency-Key': 'try-1' },
  });
  assert.equal(first.status, 402, first.text);
  await h().fund(worker.address, WORKER_FUNDS);
  const replay = await call(h().app, worker, 'POST', path, {
    body: {},
    headers: { 'Idempotency-Key': 'try-1' },
  });
  assert.equal(replay.status, 402);
  assert.equal(replay.headers.get('Idempotent-Replayed'), 'true');
  assert.deepEqual(await usdc(h(), worker), [WORKER_FUNDS, 0n]);
  const second = await call(h().app, worker, 'POST', path, {
    body: {},
    headers: { 'Idempotency-Key': 'try-2' },
  });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.json.status, 'matched');
  assert.deepEqual(await usdc(h(), worker), [WORKER_FUNDS - WORKER_STAKE, WORKER_STAKE]);
  assert.deepEqual(await usdc(h(), client), [FUNDS - PRICE, PRICE]);
});
