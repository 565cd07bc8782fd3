// Keyed calls retried on another API process after the first one's answer was lost (what the cluster's load
// test does when an API dies mid-request or Temporal restarts). A creation whose escrow is still undecided:
// the retry answers the same contract once the escrow is held — never 409, never a second hold. A delivery
// that took effect: the retry answers what the delivery answered, not "nothing to deliver".
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { contractIdForKey } from '../../api/contracts/ids';
import { closeApiStores, openApiStores } from '../../store';
import { contractWorkflowId } from '../../workflows/definitions';
import { appOn, runContractWorker, TASK_QUEUE, useAppHarness } from '../support/service';
import { DELIVERY } from '../e2e/support';
import { call } from './support';
import { contractBody, newAgent } from '../support/fixtures';
import { eventually } from '../support/eventually';

const h = useAppHarness();

test('a keyed creation retried before its escrow is decided: the same contract, 201, one hold', async () => {
  // A task queue nobody polls yet: the first call's escrow stays undecided until the worker below starts.
  const taskQueue = `create-retry-${randomUUID()}`;
  const dirs = [1, 2].map(() => mkdtempSync(join(tmpdir(), 'oc-create-retry-')));
  // Two API processes with their own stores: the second one took the key over from the first.
  const stores = dirs.map((dir) => openApiStores(dir, h().settings.vaultMasterKey));
  const [first, second] = stores.map((s) =>
    appOn(h().env, h().settings, { ledger: h().ledger, records: h().records, stores: s, taskQueue }),
  );
  try {
    const client = newAgent();
    await h().fund(client.address, 10_000_000n);
    const request = { body: contractBody(newAgent().address), headers: { 'Idempotency-Key': 'retry-1' } };
    const firstAnswer = call(first!, client, 'POST', '/contracts', request);
    const contractId = contractIdForKey(client.address, 'retry-1');
    const handle = h().env.client.workflow.getHandle(contractWorkflowId(contractId));
    await eventually(
      () =>
        handle.describe().then(
          () => true,
          () => false,
        ),
      (started) => started,
      30_000,
    );
    const retried = call(second!, client, 'POST', '/contracts', request);
    const worker = await runContractWorker(h().env, h().ledger, h().settings, taskQueue);
    try {
      const answers = await Promise.all([firstAnswer, retried]);
      for (const answer of answers) {
        assert.equal(answer.status, 201, answer.text);
        assert.equal(answer.json.contractId, contractId);
        assert.equal(answer.json.status, 'created');
      }
      const { USDC } = await h().balances(client.address);
      assert.deepEqual([USDC.available, USDC.held], [10_000_000n - 2_500_000n, 2_500_000n]);
      const holds = await h().ledger.holdsOf(`agent:${client.address}` as `agent:0x${string}`, {
        open: true,
      });
      assert.equal(holds.length, 1);
    } finally {
      await worker.stop();
    }
  } finally {
    stores.forEach(closeApiStores);
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  }
});

test('a keyed delivery retried after its answer was lost: the same answer, delivered once', async () => {
  const dirs = [1, 2].map(() => mkdtempSync(join(tmpdir(), 'oc-deliver-retry-')));
  const stores = dirs.map((dir) => openApiStores(dir, h().settings.vaultMasterKey));
  const [first, second] = stores.map((s) =>
    appOn(h().env, h().settings, {
      ledger: h().ledger,
      records: h().records,
      stores: s,
      taskQueue: TASK_QUEUE,
    }),
  );
  try {
    const client = newAgent();
    const worker = newAgent();
    await h().fund(client.address, 10_000_000n);
    await h().fund(worker.address, 10_000_000n); // the Worker's stake
    const created = await call(first!, client, 'POST', '/contracts', { body: contractBody(worker.address) });
    const id: string = created.json.contractId;
    assert.equal((await call(first!, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
    const request = { body: DELIVERY, headers: { 'Idempotency-Key': 'deliver-1' } };
    const delivered = await call(first!, worker, 'POST', `/contracts/${id}/deliveries`, request);
    assert.equal(delivered.status, 200, delivered.text);
    // The second API never saw the key (the first one's answer was lost with it).
    const retried = await call(second!, worker, 'POST', `/contracts/${id}/deliveries`, request);
    assert.equal(retried.status, 200, retried.text);
    assert.deepEqual(retried.json, delivered.json);
    const events = (await call(first!, undefined, 'GET', `/contracts/${id}/events`)).json.events as Array<{
      type: string;
    }>;
    assert.equal(events.filter((e) => e.type === 'contract.delivered').length, 1);
    // Another delivery under a new key is still refused: the contract is under review. (The same
    // delivery again is a retry of what was accepted, answered as such whatever its key: docs/api.md.)
    const other = await call(second!, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { ...DELIVERY, uri: 'https://files.example/another.enc', sha256: 'ef'.repeat(32) },
      headers: { 'Idempotency-Key': 'deliver-2' },
    });
    assert.equal(other.status, 409, other.text);
    assert.equal(other.json.error.code, 'wrong_state');
  } finally {
    stores.forEach(closeApiStores);
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  }
});
