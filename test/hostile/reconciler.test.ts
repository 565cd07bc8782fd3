// No failure leaves money held, the reconciler: a hold whose contract is closed (here: its workflow terminated
// with escrow and stake held) is reported by GET /operator/stuck-holds and released to its owner by
// POST /operator/stuck-holds/release or by the scheduled hold reconciler the worker process starts;
// a running contract's holds are never touched. Also the operator's resolve route: 401 without the
// token, 400 naming the field, 404 for an unknown contract, 409 for a contract not waiting.
// Dev server, real worker and ledger on SQLite, the app in process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Client } from '@temporalio/client';
import { createTemporalClient } from '../../service/temporal-client';
import { startReconciler } from '../../service/worker';
import { contractWorkflowId } from '../../workflows/definitions';
import { OPERATOR_TOKEN, TASK_QUEUE, useAppHarness } from '../support/service';
import { call, matchedContract } from '../api/support';
import { FUNDS, newAgent, PRICE, WORKER_STAKE } from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();

function operatorCall(method: string, path: string, body?: unknown, token = OPERATOR_TOKEN) {
  return call(h().app, undefined, method, path, {
    ...(body === undefined ? {} : { body }),
    headers: { Authorization: `Bearer ${token}` },
  });
}

function temporal(): Client {
  return createTemporalClient({
    connection: h().env.connection,
    namespace: h().env.namespace ?? 'default',
    codecKey: h().settings.payloadCodecKey,
  });
}

/** A matched FDP contract: the Client's escrow and the Worker's stake are held. */
async function strandedOf(contractId: string): Promise<string[]> {
  const report = await operatorCall('GET', '/operator/stuck-holds');
  assert.equal(report.status, 200, report.text);
  return (report.json.holds as { contractId: string; holdId: string }[])
    .filter((x) => x.contractId === contractId)
    .map((x) => x.holdId)
    .sort();
}

test('holds of a terminated contract are reported, then released by the route; a running one is untouched', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const { id: dead } = await matchedContract(h(), { client, worker });
  const { id: alive } = await matchedContract(h(), { client, worker });
  await temporal().workflow.getHandle(contractWorkflowId(dead)).terminate('test: a workflow gone wrong');

  assert.equal(
    (await operatorCall('GET', '/operator/stuck-holds', undefined, 'wrong-token-0123456789')).status,
    401,
  );
  assert.deepEqual(await strandedOf(dead), [`${dead}:escrow`, `${dead}:stake:${worker.address}`].sort());
  assert.deepEqual(await strandedOf(alive), [], 'a running contract holds by right');

  const released = await operatorCall('POST', '/operator/stuck-holds/release');
  assert.equal(released.status, 200, released.text);
  const ids = (released.json.holds as { holdId: string; amount: string; owner: string }[])
    .filter((x) => x.holdId.startsWith(dead))
    .map((x) => [x.holdId, x.owner, x.amount]);
  assert.deepEqual(ids.sort(), [
    [`${dead}:escrow`, client.address, PRICE.toString()],
    [`${dead}:stake:${worker.address}`, worker.address, WORKER_STAKE.toString()],
  ]);
  // Only the live contract's holds remain: exactly its escrow and stake.
  assert.deepEqual(await usdc(h(), client.address), [FUNDS - PRICE, PRICE]);
  assert.deepEqual(await usdc(h(), worker.address), [FUNDS - WORKER_STAKE, WORKER_STAKE]);
  assert.deepEqual(await strandedOf(dead), []);
  const again = await operatorCall('POST', '/operator/stuck-holds/release');
  assert.equal(
    (again.json.holds as { contractId: string }[]).filter((x) => x.contractId === dead).length,
    0,
    'a second release moves nothing',
  );
  await h().ledger.audit();
});

test('the scheduled reconciler releases the holds of a terminated contract; a second start finds it running', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const { id: dead } = await matchedContract(h(), { client, worker });
  await temporal().workflow.getHandle(contractWorkflowId(dead)).terminate('test: a workflow gone wrong');
  assert.equal((await strandedOf(dead)).length, 2);

  await startReconciler(temporal(), TASK_QUEUE);
  await startReconciler(temporal(), TASK_QUEUE); // idempotent: the same workflow
  for (let i = 0; i < 200 && (await strandedOf(dead)).length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.deepEqual(await strandedOf(dead), []);
  assert.deepEqual(await usdc(h(), client.address), [FUNDS, 0n]);
  assert.deepEqual(await usdc(h(), worker.address), [FUNDS, 0n]);
  await h().ledger.audit();
});

test('the resolve route: operator token, the action named, unknown contract, not waiting', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const { id: id } = await matchedContract(h(), { client, worker });
  const path = `/operator/contracts/${id}/resolve`;
  assert.equal((await operatorCall('POST', path, { action: 'retry' }, 'wrong-token-0123456789')).status, 401);
  const bad = await operatorCall('POST', path, { action: 'later' });
  assert.equal(bad.status, 400, bad.text);
  assert.match(bad.text, /action/);
  const unknown = await operatorCall('POST', '/operator/contracts/c-nosuchcontract000000000/resolve', {
    action: 'retry',
  });
  assert.equal(unknown.status, 404, unknown.text);
  const notStuck = await operatorCall('POST', path, { action: 'release' });
  assert.equal(notStuck.status, 409, notStuck.text);
  assert.equal(notStuck.json.error.code, 'not_stuck');
  // Nothing changed: the contract still holds exactly its escrow and stake.
  assert.deepEqual(await usdc(h(), client.address), [FUNDS - PRICE, PRICE]);
  assert.deepEqual(await usdc(h(), worker.address), [FUNDS - WORKER_STAKE, WORKER_STAKE]);
});
