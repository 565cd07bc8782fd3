// The stake pre-check of an accept (api/contracts/stake-precheck.ts) once the API knows the contract's stake
// from an earlier read (api/contracts/fixed-stake-memo.ts), as after every POST /contracts and GET of it: a
// caller short of the stake is still refused 402 before any Update, one who has it is matched, and
// a keyed accept retried on another API process after it matched is answered by the workflow (the
// same answer), not refused, though the stake it locked has left the caller short.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { closeApiStores, openApiStores } from '../../store';
import { appOn, TASK_QUEUE, useAppHarness } from '../support/service';
import { call, type Json } from './support';
import { contractBody, newAgent } from '../support/fixtures';

const h = useAppHarness();

/** An open tender created through the API (which remembers its stake) and the stake it asks. */
async function openTender(): Promise<{ id: string; stake: bigint }> {
  const client = newAgent();
  await h().fund(client.address, 10_000_000n);
  const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(undefined) });
  assert.equal(created.status, 201, created.text);
  const id: string = created.json.contractId;
  const seen = await call(h().app, undefined, 'GET', `/contracts/${id}`);
  return { id, stake: BigInt(seen.json.stakeToMatch.workerStake) };
}

test('short of the stake by one unit: 402 naming both amounts, nothing reaches the workflow; the whole stake: matched', async () => {
  const { id, stake } = await openTender();
  assert.ok(stake > 0n);
  const poor = newAgent();
  await h().fund(poor.address, stake - 1n);
  const refused = await call(h().app, poor, 'POST', `/contracts/${id}/accept`, { body: {} });
  assert.equal(refused.status, 402, refused.text);
  assert.equal(refused.json.error.code, 'insufficient_funds');
  assert.deepEqual(refused.json.error.details, {
    available: (stake - 1n).toString(),
    needed: stake.toString(),
  });
  const events = (await call(h().app, undefined, 'GET', `/contracts/${id}/events`)).json.events as Json[];
  assert.deepEqual(
    events.filter((e) => e.actor === poor.address),
    [],
  );
  assert.deepEqual(
    await h()
      .balances(poor.address)
      .then((b) => [b.USDC.available, b.USDC.held]),
    [stake - 1n, 0n],
  );

  const funded = newAgent();
  await h().fund(funded.address, stake);
  const accepted = await call(h().app, funded, 'POST', `/contracts/${id}/accept`, { body: {} });
  assert.equal(accepted.status, 200, accepted.text);
  assert.deepEqual([accepted.json.status, accepted.json.worker], ['matched', funded.address]);
  assert.deepEqual(
    await h()
      .balances(funded.address)
      .then((b) => [b.USDC.available, b.USDC.held]),
    [0n, stake],
  );
});

test('a keyed accept retried on another API after it matched: the same answer, one stake held', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oc-accept-retry-'));
  const stores = openApiStores(dir, h().settings.vaultMasterKey);
  const second = appOn(h().env, h().settings, {
    ledger: h().ledger,
    records: h().records,
    stores,
    taskQueue: TASK_QUEUE,
  });
  try {
    const { id, stake } = await openTender();
    const worker = newAgent();
    await h().fund(worker.address, stake);
    const request = { body: {}, headers: { 'Idempotency-Key': 'accept-1' } };
    const first = await call(h().app, worker, 'POST', `/contracts/${id}/accept`, request);
    assert.equal(first.status, 200, first.text);
    // The second API reads the contract (and so knows its stake) before the retry reaches it; the
    // caller now has nothing available: the stake is held.
    assert.equal((await call(second, undefined, 'GET', `/contracts/${id}`)).status, 200);
    const retried = await call(second, worker, 'POST', `/contracts/${id}/accept`, request);
    assert.equal(retried.status, 200, retried.text);
    assert.deepEqual(retried.json, first.json);
    assert.deepEqual(
      await h()
        .balances(worker.address)
        .then((b) => [b.USDC.available, b.USDC.held]),
      [0n, stake],
    );
  } finally {
    closeApiStores(stores);
    rmSync(dir, { recursive: true, force: true });
  }
});
