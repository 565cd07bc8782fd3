// The other routes through app.request(): unknown IDs, views, events, listing, eligibility, operator
// deposits, health, the OpenAPI document and the docs page.
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { test } from 'node:test';
import { createApp } from '../../api/app';
import { SqlitePayoutStore } from '../../store/payouts/sqlite';
import { OPERATOR_TOKEN, TASK_QUEUE, useAppHarness } from '../support/service';
import { call } from './support';
import { contractBody, FUNDS, newAgent } from '../support/fixtures';

const h = useAppHarness();

test('an unknown contract ID, whatever its form → 404', async () => {
  const agent = newAgent();
  for (const id of [
    'c-aaaaaaaaaaaaaaaaaaaaaaaaaa',
    'nonsense',
    'contract-c-x',
    '%2e%2e',
    'C-AAAAAAAAAAAAAAAAAAAAAAAAAA',
  ]) {
    for (const [who, method, path] of [
      [undefined, 'GET', `/contracts/${id}`],
      [undefined, 'GET', `/contracts/${id}/events`],
      [agent, 'GET', `/contracts/${id}/keys/delivery`],
      [agent, 'POST', `/contracts/${id}/accept`],
    ] as const) {
      const res = await call(h().app, who, method, path);
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      assert.equal(typeof res.json.error.message, 'string');
    }
  }
});

test('public view for anyone, party view for a signed party; events are content-free', async () => {
  const client = newAgent();
  const stranger = newAgent();
  await h().fund(client.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', {
    body: contractBody(newAgent().address),
  });
  const id = created.json.contractId;
  const anonymous = await call(h().app, undefined, 'GET', `/contracts/${id}`);
  assert.equal(anonymous.json.view, 'public');
  assert.equal(anonymous.json.client, undefined);
  assert.equal(anonymous.json.taskDescription, 'Summarize the attached report in 200 words.');
  assert.equal((await call(h().app, stranger, 'GET', `/contracts/${id}`)).json.view, 'public');
  const party = await call(h().app, client, 'GET', `/contracts/${id}`);
  assert.equal(party.json.view, 'party');
  assert.equal(party.json.escrowedFunds, '2500000');
  const badSignature = await call(h().app, client, 'GET', `/contracts/${id}`, {
    sign: { now: Date.now() - 600_000 },
  });
  assert.equal(badSignature.status, 401);

  const events = await call(h().app, undefined, 'GET', `/contracts/${id}/events`);
  assert.equal(events.status, 200);
  assert.equal(events.json.events[0].type, 'contract.created');
  assert.ok(!events.text.includes('Summarize'), 'no task content in events');
});

test('a message to a finished contract → 409; cancel by the Client refunds the escrow', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const id = (await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) })).json
    .contractId;
  const cancelled = await call(h().app, client, 'POST', `/contracts/${id}/cancel`);
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.status, 'cancelled-by-client');
  const late = await call(h().app, worker, 'POST', `/contracts/${id}/accept`);
  assert.equal(late.status, 409, late.text);
  const { USDC } = await h().balances(client.address);
  assert.deepEqual([USDC.available, USDC.held], [FUNDS, 0n]);
  assert.deepEqual((await h().balances(worker.address)).USDC, { available: FUNDS, held: 0n });
});

test('listing: open tenders by default; filters by status, award method and type', async () => {
  const client = newAgent();
  await h().fund(client.address, FUNDS);
  const open = (await call(h().app, client, 'POST', '/contracts', { body: contractBody(undefined) })).json
    .contractId;
  const direct = (
    await call(h().app, client, 'POST', '/contracts', { body: contractBody(newAgent().address) })
  ).json.contractId;
  const ids = async (query: string) =>
    (await call(h().app, undefined, 'GET', `/contracts${query}`)).json.contracts.map(
      (c: { contractId: string }) => c.contractId,
    );
  const deadline = Date.now() + 20_000;
  while (!(await ids('?status=created')).includes(direct) || !(await ids('')).includes(open)) {
    assert.ok(Date.now() < deadline, 'visibility did not catch up');
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(!(await ids('')).includes(direct), 'a direct award is no open tender');
  assert.ok((await ids('?awardMethod=direct')).includes(direct));
  assert.ok(!(await ids('?contractType=auction')).includes(open));
  assert.equal((await call(h().app, undefined, 'GET', '/contracts?status=bogus')).status, 400);
  assert.equal((await call(h().app, undefined, 'GET', '/contracts?sort=price')).status, 400);
});

test('balances: the agent itself, signed', async () => {
  const agent = newAgent();
  await h().fund(agent.address, FUNDS);
  const res = await call(h().app, agent, 'GET', `/agents/${agent.address}/balances`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, {
    address: agent.address,
    balances: { USDC: { available: '10000000', held: '0' }, OCT: { available: '0', held: '0' } },
  });
});

test('eligibility lock and unlock move the stake between available and held', async () => {
  const agent = newAgent();
  await h().fund(agent.address, FUNDS);
  const locked = await call(h().app, agent, 'POST', '/eligibility/lock', {
    body: { amount: '4000000' },
    headers: { 'Idempotency-Key': 'lock-1' },
  });
  assert.equal(locked.status, 200, locked.text);
  assert.deepEqual(locked.json.balances.USDC, { available: '6000000', held: '4000000' });
  const repeat = await call(h().app, agent, 'POST', '/eligibility/lock', {
    body: { amount: '4000000' },
    headers: { 'Idempotency-Key': 'lock-1' },
  });
  assert.equal(repeat.headers.get('Idempotent-Replayed'), 'true');
  const tooMuch = await call(h().app, agent, 'POST', '/eligibility/lock', { body: { amount: '7000000' } });
  assert.equal(tooMuch.status, 402, tooMuch.text);
  const unlocked = await call(h().app, agent, 'POST', '/eligibility/unlock', { body: { amount: '1000000' } });
  assert.equal(unlocked.status, 200, unlocked.text);
  assert.equal(unlocked.json.released, '1000000');
  assert.deepEqual(unlocked.json.balances.USDC, { available: '7000000', held: '3000000' });
  const all = await call(h().app, agent, 'POST', '/eligibility/unlock', { body: {} });
  assert.deepEqual(all.json.balances.USDC, { available: '10000000', held: '0' });
});

test('operator deposits: bearer token, no signature; idempotent; wrong token → 401', async () => {
  const agent = newAgent();
  const deposit = (token: string, key: string) =>
    h().app.request('/operator/deposits', {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': key,
      },
      body: JSON.stringify({ address: agent.address, asset: 'USDC', amount: '5000000' }),
    });
  assert.equal((await deposit('wrong-token-wrong-token', 'd-0')).status, 401);
  assert.equal((await deposit(OPERATOR_TOKEN, 'd-1')).status, 200);
  assert.equal((await deposit(OPERATOR_TOKEN, 'd-1')).headers.get('Idempotent-Replayed'), 'true');
  assert.deepEqual((await h().balances(agent.address)).USDC, { available: 5_000_000n, held: 0n });
});

test('health: 200 when Temporal answers, 503 when it does not', async () => {
  const up = await h().app.request('/health');
  assert.equal(up.status, 200);
  const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 500 });
  const down = createApp({
    temporal: new Client({ connection }),
    taskQueue: TASK_QUEUE,
    ledger: h().ledger,
    records: h().records,
    vault: h().vault,
    nonces: { consume: async () => true },
    idempotency: {
      reserve: async () => ({ kind: 'reserved' }),
      complete: async () => {},
      release: async () => {},
    },
    payouts: new SqlitePayoutStore(':memory:'),
    params: h().settings.params,
    operatorToken: OPERATOR_TOKEN,
    cursorKey: h().settings.cursorKey,
  });
  const res = await down.request('/health');
  assert.equal(res.status, 503);
  assert.deepEqual(await res.json(), { status: 'unavailable', temporal: 'down' });
});

test('the OpenAPI document and the docs page describe every route', async () => {
  const doc = (await (await h().app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const routes = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
  );
  for (const expected of [
    'POST /contracts',
    'GET /contracts',
    'GET /contracts/{id}',
    'POST /contracts/{id}/accept',
    'POST /contracts/{id}/decline',
    'POST /contracts/{id}/cancel',
    'POST /contracts/{id}/withdraw',
    'POST /contracts/{id}/deliveries',
    'POST /contracts/{id}/approve',
    'GET /contracts/{id}/keys/materials',
    'GET /contracts/{id}/keys/delivery',
    'GET /contracts/{id}/events',
    'GET /agents/{address}/balances',
    'POST /eligibility/lock',
    'POST /eligibility/unlock',
    'POST /operator/deposits',
    'GET /health',
    'GET /params',
    'GET /eligibility/requirements',
    'POST /agents/{address}/withdrawals',
    'GET /agents/{address}/withdrawals',
    'GET /operator/payouts',
    'POST /operator/payouts/{id}/paid',
  ]) {
    assert.ok(routes.includes(expected), `${expected} missing from ${routes.join(', ')}`);
  }
  const security = (path: string, method: string) =>
    (doc.paths[path]?.[method] as { security?: unknown } | undefined)?.security;
  for (const [path, method] of [
    ['/contracts', 'get'],
    ['/contracts/{id}/votes', 'get'],
    ['/params', 'get'],
    ['/eligibility/requirements', 'get'],
    ['/agents/{address}/votes', 'get'],
    ['/health', 'get'],
  ] as const) {
    assert.deepEqual(security(path, method), [], `${method} ${path} is public`);
  }
  const signature = (path: string, method: string) =>
    (doc.paths[path]?.[method] as { 'x-signature'?: string } | undefined)?.['x-signature'];
  for (const path of ['/contracts/{id}', '/contracts/{id}/events', '/contracts/{id}/events/stream']) {
    assert.equal(signature(path, 'get'), 'optional', `${path}: optionally signed`);
  }
  assert.equal(signature('/contracts/{id}/accept', 'post'), 'required', 'signed routes say so');
  assert.equal(signature('/contracts', 'get'), undefined);
  const docs = await h().app.request('/docs');
  assert.equal(docs.status, 200);
  assert.match(await docs.text(), /POST \/contracts\/\{id\}\/deliveries/);
});
