// A lost read model is written again: an open contract's rows are deleted from the store (every read
// answers 404), the operator's rebuild signals every running contract, and the view and the whole log
// come back; the next message's write carries on from there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { AgentApiError } from '../../sdk/typescript';
import { rebuildReadModel } from '../../service/read-model-rebuild';
import { contractWorkflowId } from '../../workflows/definitions';
import { useServiceHarness } from '../support/service';
import { agent, DELIVERY, fixedTerms, fund } from '../e2e/support';
import { eventually } from '../support/eventually';

const h = useServiceHarness();

/** Deletes one contract's read model, as a lost or restored-from-old-backup database would. */
function loseReadModel(contractId: string): void {
  const ledger = h().settings.ledger;
  assert.equal(ledger.kind, 'sqlite', 'the embedded default keeps the read model in the ledger file');
  const db = new Database(ledger.path);
  try {
    db.prepare('DELETE FROM contract_view_events WHERE contract_id = ?').run(contractId);
    db.prepare('DELETE FROM contract_views WHERE contract_id = ?').run(contractId);
  } finally {
    db.close();
  }
}

test("the operator's rebuild writes a lost read model again, view and whole log", async () => {
  const client = agent(h());
  const worker = agent(h());
  await fund(h(), client.address);
  await fund(h(), worker.address);
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(id);
  const before = { view: await client.getContract(id), events: (await client.getEvents(id)).events };
  assert.equal(before.view.status, 'matched');

  loseReadModel(id);
  await assert.rejects(client.getContract(id), (err) => err instanceof AgentApiError && err.status === 404);

  const signalled = await rebuildReadModel(h().env.client);
  assert.ok(signalled.includes(contractWorkflowId(id)), 'the running contract was asked');
  const view = await eventually(
    () => client.getContract(id).catch(() => undefined),
    (v) => v !== undefined,
    30_000,
  );
  assert.deepEqual(view, before.view);
  assert.deepEqual((await client.getEvents(id)).events, before.events);

  // The next transition's write carries on from the rebuilt log.
  await worker.deliver(id, DELIVERY);
  await client.approve(id);
  const { events } = await client.getEvents(id);
  assert.deepEqual(events.slice(0, before.events.length), before.events);
  assert.deepEqual(
    events.slice(before.events.length).map((e) => e.type),
    ['contract.delivered', 'agent.verified', 'contract.resolved', 'contract.settled'],
  );
});
