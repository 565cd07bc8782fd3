// A settled contract's answers outlive its workflow: an FDP contract is disputed and settled by a
// three-BA panel, every read is taken, the workflow is deleted with the Temporal CLI
// (`temporal workflow delete`), and every read answers the same from the contract's durable record —
// the Client's delivery key included, a stranger still refused, a late message a wrong state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentApiError } from '../../sdk/typescript';
import type { Verdict } from '../../sdk/typescript/types';
import { contractWorkflowId } from '../../workflows/definitions';
import { criterionKey } from '../../workflows/rules/criterion-keys';
import { useServiceHarness } from '../support/service';
import { deleteContractWorkflow } from './delete-workflow';
import { agent, DELIVERY, expectApiError, fixedTerms, fund } from '../e2e/support';
import { eventually } from '../support/eventually';

const h = useServiceHarness();

const CRITERIA = ['every section translated', 'code blocks untouched', 'links still resolve'];
const BA_FUNDS = 120_000_000n;
const ELIGIBILITY_STAKE = '100000000';
const VERDICTS: Verdict[] = ['met', 'not met', 'met'];

/** A read's answer, or its error's status and code: what must not change when the workflow goes. */
async function outcome(read: Promise<unknown>): Promise<unknown> {
  try {
    return { ok: await read };
  } catch (err) {
    if (err instanceof AgentApiError) return { status: err.status, code: err.code };
    throw err;
  }
}

test('view, events, vote rows and the delivery key answer the same after `temporal workflow delete`', async () => {
  const client = agent(h());
  const worker = agent(h());
  const stranger = agent(h());
  const bas = [agent(h()), agent(h()), agent(h())];
  await fund(h(), client.address);
  await fund(h(), worker.address);
  for (const ba of bas) {
    await fund(h(), ba.address, BA_FUNDS);
    await ba.lockEligibility(ELIGIBILITY_STAKE);
  }
  const { contractId: id } = await client.createContract({
    ...fixedTerms(worker.address),
    acceptanceCriteria: CRITERIA,
  });
  await worker.accept(id);
  await worker.deliver(id, DELIVERY);
  await client.dispute(id, ['met', 'not met', 'not met']);
  for (const ba of bas) await ba.vote(id, VERDICTS);
  // Both parties waive their appeal: the tally settles at once.
  await client.appeal(id, { waive: true });
  await worker.appeal(id, { waive: true });
  const handle = h().env.client.workflow.getHandle(contractWorkflowId(id));
  await eventually(
    () => handle.describe(),
    (d) => d.status.name === 'COMPLETED',
  );

  const reads = () =>
    Promise.all([
      outcome(client.getContract(id)),
      outcome(worker.getContract(id)),
      outcome(stranger.getContract(id, { signed: false })),
      outcome(client.getEvents(id)),
      outcome(stranger.getVotes(id)),
      outcome(client.getDeliveryKey(id)),
      outcome(bas[0]!.getDeliveryKey(id)),
      outcome(worker.getMaterialsKey(id)),
      outcome(stranger.getDeliveryKey(id)),
      outcome(client.getDeliveryContent(id)),
    ]);
  const before = await reads();
  type Answer<T> = { ok: T };
  const [view, , , events, votes, clientKey, , , strangerKey] = before as [
    Answer<{ status: string }>,
    unknown,
    unknown,
    Answer<{ events: Array<{ successCriteria?: unknown }> }>,
    Answer<{ rows: unknown[] }>,
    Answer<{ key: string }>,
    unknown,
    unknown,
    { status: number },
    unknown,
  ];
  assert.equal(view.ok.status, 'settled-partially-met');
  assert.equal(clientKey.ok.key, DELIVERY.key);
  assert.equal(strangerKey.status, 403);
  assert.equal(votes.ok.rows.length, 9);
  const resolved = events.ok.events.find((e) => e.successCriteria);
  assert.deepEqual(
    resolved?.successCriteria,
    VERDICTS.map((v, i) => ({ key: criterionKey(i), met: v === 'met' })),
  );

  await deleteContractWorkflow(h().env, id);

  assert.deepEqual(await reads(), before);
  await expectApiError(worker.accept(id), 409, 'wrong_state');
});
