// The codec key authenticates messages. Anyone who reaches the Temporal frontend
// can send a Signal or an Update to a contract; without the codec key its payload decodes as nothing
// on the worker, so `approve` "as the Client" by Signal is logged as a rejected message and by Update
// is refused, and a forged sealed payload does not freeze the contract either. Nothing moves; the
// Client's own approval through the API then settles the contract with exact balances.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { codecKeyId, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../service/codec';
import {
  approveSignal,
  approveUpdate,
  contractWorkflowId,
  type ContractInput,
} from '../../workflows/definitions';
import { randomContractId } from '../../api/contracts/ids';
import { termsToWire } from '../../workflows/rules/contract-terms-wire';
import { validateContractTerms } from '../../workflows/rules/contract-terms';
import { paramsToWire } from '../../workflows/rules/params';
import { TASK_QUEUE, useAppHarness } from '../support/service';
import { call, matchedContract, type Json } from '../api/support';
import { assertNothingHeld } from './side-app';
import { contractBody, FUNDS, newAgent, PRICE } from '../support/fixtures';

const h = useAppHarness();
const utf8 = new TextEncoder();

async function underReview() {
  const { id, client, worker } = await matchedContract(h());
  const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: {
      uri: 'https://files.example/out.enc',
      sha256: 'ef'.repeat(32),
      key: 'k',
      content: { text: 'done' },
    },
  });
  assert.equal(delivered.json.status, 'under-review', delivered.text);
  return { id, client, worker };
}

async function events(id: string): Promise<Json[]> {
  return (await call(h().app, undefined, 'GET', `/contracts/${id}/events`)).json.events;
}

/** Waits until the workflow has logged `count` rejected messages (Signals are handled asynchronously). */
async function rejections(id: string, count: number): Promise<Json[]> {
  for (let i = 0; i < 200; i++) {
    const rejected = (await events(id)).filter((e) => e.type === 'contract.message-rejected');
    if (rejected.length >= count) return rejected;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the workflow did not log ${count} rejected messages`);
}

test('approve as the Client without the codec key: by Signal, by Update, forged → nothing moves', async () => {
  const { id, client, worker } = await underReview();
  // The test environment's own client: same Temporal frontend, no codec.
  const raw = h().env.client.workflow.getHandle(contractWorkflowId(id));
  const before = await Promise.all([client, worker].map((a) => h().balances(a.address)));

  await raw.signal(approveSignal, { caller: client.address });
  // Refused by the validator; the refusal's details are sealed too, so this client cannot even read them.
  await assert.rejects(
    raw.executeUpdate(approveUpdate, { args: [{ caller: client.address }] }),
    /Unknown encoding: binary\/encrypted/,
  );
  // A payload that claims to be sealed under the service's key but is not.
  const codecKey = h().settings.payloadCodecKey;
  await h().env.client.workflowService.signalWorkflowExecution({
    namespace: h().env.namespace ?? 'default',
    workflowExecution: { workflowId: contractWorkflowId(id) },
    signalName: approveSignal.name,
    identity: 'attacker',
    input: {
      payloads: [
        {
          metadata: {
            encoding: utf8.encode(ENCRYPTED_ENCODING),
            [KEY_ID_METADATA]: utf8.encode(codecKeyId(codecKey)),
          },
          data: randomBytes(64),
        },
      ],
    },
  });

  const rejected = await rejections(id, 2);
  assert.deepEqual(
    rejected.map((e) => e.message),
    ['approve', 'approve'],
  );
  const view = await call(h().app, client, 'GET', `/contracts/${id}`);
  assert.equal(view.json.status, 'under-review');
  const after = await Promise.all([client, worker].map((a) => h().balances(a.address)));
  assert.deepEqual(after, before);

  // The honest Client approves through the API: the contract settles, the price moves once.
  const approved = await call(h().app, client, 'POST', `/contracts/${id}/approve`, { body: {} });
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.json.status, 'settled-fully-met');
  const [c, w] = await Promise.all([client, worker].map((a) => h().balances(a.address)));
  assert.deepEqual([c!.USDC.available, c!.USDC.held], [FUNDS - PRICE, 0n]);
  assert.deepEqual([w!.USDC.available, w!.USDC.held], [FUNDS + PRICE, 0n]);
  await assertNothingHeld(h(), [client.address, worker.address]);
});

test('a contract started without the codec key fails at once: nothing is held from the named Client', async () => {
  const client = newAgent();
  await h().fund(client.address, FUNDS);
  const checked = validateContractTerms(contractBody(newAgent().address), Date.now(), client.address);
  assert.ok(checked.ok);
  const contractId = randomContractId();
  const input: ContractInput = {
    contractId,
    terms: termsToWire(checked.terms),
    params: paramsToWire(h().settings.params),
  };
  const forged = await h().env.client.workflow.start('contractWorkflow', {
    workflowId: contractWorkflowId(contractId),
    taskQueue: TASK_QUEUE,
    args: [input],
  });
  // Its input decodes as nothing: the workflow fails at once, before any ledger step.
  await assert.rejects(forged.result(), (err: Error) => {
    assert.match(String(err.cause), /invalid contract input/);
    return true;
  });
  const history = await forged.fetchHistory();
  const types = (history.events ?? []).map((e) => Object.keys(e).find((k) => k.endsWith('Attributes')));
  assert.ok(!types.includes('activityTaskScheduledEventAttributes'), types.join());
  const { USDC } = await h().balances(client.address);
  assert.deepEqual([USDC.available, USDC.held], [FUNDS, 0n]);
  assert.equal((await call(h().app, undefined, 'GET', `/contracts/${contractId}`)).status, 404);
});
