// What an agent can learn before it acts, and money leaving, through app.request() on the real stack:
// GET /params, the stake an open contract would lock, what a Backup Agent must lock; withdrawals
// (exact balances, held funds never leave, once per Idempotency-Key) and the operator's payout queue;
// the votes of a contract without a panel; the public event log naming roles, never addresses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OPERATOR_TOKEN, useAppHarness } from '../support/service';
import { call } from './support';
import { contractBody, FUNDS, HOUR, newAgent } from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();
const ADDRESS = /0x[0-9a-f]{40}/;

const operator = (method: string, path: string, body?: unknown) =>
  call(h().app, undefined, method, path, {
    headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` },
    ...(body === undefined ? {} : { body }),
  });

test('GET /params answers the parameters in force, in wire form, with their version (no signature)', async () => {
  const res = await call(h().app, undefined, 'GET', '/params');
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, {
    version: 1,
    workerStakeBps: 1000,
    withdrawalSlashBps: 2000,
    absentSlashClientBps: 8000,
    disputeBondBps: 500,
    baPanelSize: 3,
    baEligibilityStake: '100000000',
    baBond: '10000000',
    unclearSlashBps: 5000,
    rewardPerCriterion: '1000000',
    unclearRewardBps: 5000,
    baVotingWindow: 72 * HOUR,
    baRecruitmentWindow: 72 * HOUR,
    appealWindow: 24 * HOUR,
    appealBondBps: 1000,
    appealPanelSize: 5,
    minWorkerStake: '100000',
    maxRevisions: 2,
    revisionWindow: 48 * HOUR,
    panelFeePerSeat: '200000',
  });
  const requirements = await call(h().app, undefined, 'GET', '/eligibility/requirements');
  assert.deepEqual(requirements.json, { eligibilityStake: '100000000', baBond: '10000000', baPanelSize: 3 });
});

test('an open contract’s public view says what accepting or quoting would lock', async () => {
  const client = newAgent();
  await h().fund(client.address, FUNDS);
  const fixed = await call(h().app, client, 'POST', '/contracts', { body: contractBody(undefined) });
  const auction = await call(h().app, client, 'POST', '/contracts', {
    body: contractBody(undefined, { contractType: 'auction' }),
  });
  const fixedView = await call(h().app, undefined, 'GET', `/contracts/${fixed.json.contractId}`);
  assert.deepEqual(fixedView.json.stakeToMatch, {
    workerStakeBps: 1000,
    minWorkerStake: '100000',
    workerStake: '250000',
    rule: 'max(floor(price × 1000 / 10000), 100000)',
  });
  const auctionView = await call(h().app, undefined, 'GET', `/contracts/${auction.json.contractId}`);
  assert.deepEqual(auctionView.json.stakeToMatch, {
    workerStakeBps: 1000,
    minWorkerStake: '100000',
    workerStake: null,
    rule: 'bid bond = max(floor(quote price × 1000 / 10000), 100000), held while the quote lives',
  });
  // The stake an accept locks is the one announced.
  const worker = newAgent();
  await h().fund(worker.address, FUNDS);
  await call(h().app, worker, 'POST', `/contracts/${fixed.json.contractId}/accept`);
  assert.deepEqual(await usdc(h(), worker), [FUNDS - 250_000n, 250_000n]);
  const matched = await call(h().app, undefined, 'GET', `/contracts/${fixed.json.contractId}`);
  assert.equal(matched.json.stakeToMatch, null);
});

test('a direct award’s named Worker reads, signed, the stake accepting will lock', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
  assert.equal(created.status, 201);
  const id = created.json.contractId as string;
  assert.equal(created.json.stakeToMatch.workerStake, '250000', 'the Client sees it too');
  const seen = await call(h().app, worker, 'GET', `/contracts/${id}`);
  assert.equal(seen.json.view, 'party');
  assert.equal(seen.json.role, 'worker');
  assert.equal(seen.json.workerStake, null, 'nothing is locked yet');
  assert.deepEqual(seen.json.stakeToMatch, {
    workerStakeBps: 1000,
    workerStake: '250000',
    minWorkerStake: '100000',
    rule: 'max(floor(price × 1000 / 10000), 100000)',
  });
  const accepted = await call(h().app, worker, 'POST', `/contracts/${id}/accept`);
  assert.equal(accepted.status, 200);
  assert.deepEqual(await usdc(h(), worker), [FUNDS - 250_000n, 250_000n]);
  assert.equal(accepted.json.workerStake, '250000');
  assert.equal(accepted.json.stakeToMatch, null);
});

test('deadlines sent with an offset (Python’s isoformat) are answered as the same instants in UTC, with Z', async () => {
  const client = newAgent();
  await h().fund(client.address, FUNDS);
  const body = contractBody(newAgent().address);
  const utc = body.deadlines;
  // 2 hours ahead of UTC, with microseconds; and +00:00 as datetime.isoformat() writes it.
  const ahead = (iso: string) =>
    new Date(Date.parse(iso) + 2 * HOUR).toISOString().replace(/\.(\d{3})Z$/, '.$1000+02:00');
  const created = await call(h().app, client, 'POST', '/contracts', {
    body: {
      ...body,
      deadlines: {
        match: ahead(utc.match),
        withdrawal: utc.withdrawal.replace('Z', '+00:00'),
        delivery: ahead(utc.delivery),
        review: utc.review.replace('Z', '+00:00'),
      },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(created.json.deadlines, utc);
});

test('withdrawals: available USDC only, once per Idempotency-Key, then the operator pays it out', async () => {
  const agent = newAgent();
  const other = newAgent();
  await h().fund(agent.address, FUNDS);
  await call(h().app, agent, 'POST', '/contracts', { body: contractBody(newAgent().address) });
  assert.deepEqual(await usdc(h(), agent), [7_500_000n, 2_500_000n]);
  const path = `/agents/${agent.address}/withdrawals`;
  const body = { amount: '5000000', destination: 'eth:0x00000000000000000000000000000000000000aa' };

  // More than available (the escrow is held): 402, nothing moves, nothing recorded.
  const tooMuch = await call(h().app, agent, 'POST', path, {
    body: { ...body, amount: '7500001' },
    headers: { 'Idempotency-Key': 'w-too-much' },
  });
  assert.equal(tooMuch.status, 402, tooMuch.text);
  assert.equal(tooMuch.json.error.code, 'insufficient_funds');
  const noKey = await call(h().app, agent, 'POST', path, { body });
  assert.equal(noKey.status, 400);
  assert.match(noKey.json.error.message, /Idempotency-Key/);
  const badAmount = await call(h().app, agent, 'POST', path, {
    body: { ...body, amount: '0' },
    headers: { 'Idempotency-Key': 'w-zero' },
  });
  assert.equal(badAmount.status, 400);
  assert.match(badAmount.text, /amount/);
  const notMine = await call(h().app, other, 'POST', path, { body, headers: { 'Idempotency-Key': 'w-1' } });
  assert.equal(notMine.status, 403);
  assert.deepEqual(await usdc(h(), agent), [7_500_000n, 2_500_000n]);
  assert.deepEqual((await call(h().app, agent, 'GET', path)).json, { payouts: [] });

  const mintBefore = (await h().ledger.audit()).assets.USDC.mint;
  const first = await call(h().app, agent, 'POST', path, { body, headers: { 'Idempotency-Key': 'w-1' } });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.json.balances.USDC.available, '2500000');
  assert.equal(first.json.withdrawal.status, 'pending');
  const again = await call(h().app, agent, 'POST', path, { body, headers: { 'Idempotency-Key': 'w-1' } });
  assert.equal(again.status, 201);
  assert.deepEqual(again.json, first.json);
  assert.deepEqual(await usdc(h(), agent), [2_500_000n, 2_500_000n]);
  // A transfer back to the outside account deposits come from (the USDC mint), once; the sum stays zero.
  const audit = await h().ledger.audit();
  assert.deepEqual(audit.assets.USDC, { sum: 0n, mint: mintBefore + 5_000_000n });

  const mine = (await call(h().app, agent, 'GET', path)).json.payouts;
  assert.equal(mine.length, 1);
  assert.deepEqual(
    [mine[0].id, mine[0].amount, mine[0].destination, mine[0].status],
    [first.json.withdrawal.id, '5000000', body.destination, 'pending'],
  );
  assert.equal((await call(h().app, other, 'GET', path)).status, 403);

  assert.equal((await call(h().app, undefined, 'GET', '/operator/payouts')).status, 401);
  const queue = (await operator('GET', '/operator/payouts')).json.payouts;
  assert.ok(queue.some((p: { id: string }) => p.id === mine[0].id));
  const paid = await operator('POST', `/operator/payouts/${encodeURIComponent(mine[0].id)}/paid`, {
    reference: 'tx-42',
  });
  assert.equal(paid.status, 200, paid.text);
  assert.deepEqual([paid.json.status, paid.json.reference], ['paid', 'tx-42']);
  const after = (await operator('GET', '/operator/payouts')).json.payouts;
  assert.ok(!after.some((p: { id: string }) => p.id === mine[0].id));
  assert.equal((await call(h().app, agent, 'GET', path)).json.payouts[0].status, 'paid');
  assert.equal((await operator('POST', '/operator/payouts/nope/paid', { reference: 'x' })).status, 404);
  // Marking paid moves no money.
  assert.deepEqual(await usdc(h(), agent), [2_500_000n, 2_500_000n]);
});

test('a contract that never had a panel has no votes: an empty list, not sealed', async () => {
  const client = newAgent();
  await h().fund(client.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', {
    body: contractBody(newAgent().address),
  });
  const votes = await call(h().app, undefined, 'GET', `/contracts/${created.json.contractId}/votes`);
  assert.equal(votes.status, 200, votes.text);
  assert.deepEqual(votes.json, { contractId: created.json.contractId, rows: [] });
});

test('a contract settled without a panel keeps answering no votes once its record is written', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
  const id: string = created.json.contractId;
  assert.equal((await call(h().app, worker, 'POST', `/contracts/${id}/accept`)).status, 200);
  const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: {
      uri: 'https://files.example/out.enc',
      sha256: 'ef'.repeat(32),
      key: 'k',
      content: { text: 'done' },
    },
  });
  assert.equal(delivered.status, 200, delivered.text);
  const approved = await call(h().app, client, 'POST', `/contracts/${id}/approve`);
  assert.equal(approved.json.status, 'settled-fully-met', approved.text);
  for (let i = 0; i < 100 && (await h().records.get(id)) === undefined; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.notEqual(await h().records.get(id), undefined, 'the record is written');
  const votes = await call(h().app, undefined, 'GET', `/contracts/${id}/votes`);
  assert.equal(votes.status, 200, votes.text);
  assert.deepEqual(votes.json, { contractId: id, rows: [] });
});

test('the event log names roles, not addresses, to anyone but the parties', async () => {
  const client = newAgent();
  const worker = newAgent();
  const stranger = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
  const id = created.json.contractId;
  await call(h().app, worker, 'POST', `/contracts/${id}/accept`);

  for (const reader of [undefined, stranger]) {
    const res = await call(h().app, reader, 'GET', `/contracts/${id}/events`);
    assert.equal(res.status, 200);
    assert.doesNotMatch(res.text, ADDRESS);
    const [createdEvent, matched] = res.json.events;
    assert.deepEqual([createdEvent.actor, createdEvent.worker], ['client', 'worker']);
    assert.deepEqual([matched.type, matched.actor, matched.worker], ['contract.matched', 'worker', 'worker']);
  }
  for (const party of [client, worker]) {
    const res = await call(h().app, party, 'GET', `/contracts/${id}/events`);
    assert.equal(res.json.events[0].actor, client.address);
    assert.equal(res.json.events[1].worker, worker.address);
  }
  // The public view hides the parties too.
  const view = await call(h().app, undefined, 'GET', `/contracts/${id}`);
  assert.doesNotMatch(view.text, ADDRESS);
});
