// What a feed projector's look at a contract costs the contract's worker: one query (the workflow's
// `snapshot`: view, event log and ballots cast), whatever the contract's state. A projector of its own, on a
// Temporal client that counts the queries it sends, a real dev server, worker and feed store (SQLite).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createFeedProjector } from '../../activities/agent-feed/projector';
import { createContractGateway } from '../../api/contract-gateway';
import { openFeed } from '../../store/agent-feed';
import { makeDir, TASK_QUEUE, useAppHarness, type AppHarness } from '../support/service';
import { queryCountingClient } from '../support/query-counting-client';
import { call } from '../api/support';
import { contractBody, DELIVERY_REF, FUNDS, newAgent } from '../support/fixtures';

const h = useAppHarness();

async function countedProjector(harness: AppHarness) {
  const { dir, remove } = makeDir('projector-queries');
  after(remove);
  const { temporal, queries } = queryCountingClient(harness);
  const store = await openFeed({ dataDir: dir, ledger: { kind: 'sqlite' } });
  const source = createContractGateway({
    client: temporal,
    taskQueue: TASK_QUEUE,
    records: harness.records,
    cursorKey: harness.settings.cursorKey,
  });
  const projector = createFeedProjector({ store, source });
  /** One look: the agents that got new entries and the queries it sent. */
  const look = async (contractId: string) => {
    const before = queries();
    const agents = await projector.sync(contractId);
    return { agents, queries: queries() - before };
  };
  return { store, look };
}

describe("a projector's look at a contract", () => {
  test('is one query, from creation to delivery, and writes what is new', async () => {
    const client = newAgent();
    const worker = newAgent();
    await h().fund(client.address, FUNDS);
    await h().fund(worker.address, FUNDS);
    const { store, look } = await countedProjector(h());

    const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json.contractId;
    const first = await look(id);
    assert.equal(first.queries, 1);
    assert.deepEqual(new Set(first.agents), new Set([client.address, worker.address]));

    const accepted = await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { ...DELIVERY_REF, content: { text: 'done' } },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const second = await look(id);
    assert.equal(second.queries, 1);
    const types = (await store.read(client.address, 0, 50))
      .filter((e) => e.contractId === id)
      .map((e) => e.event?.type);
    assert.ok(types.includes('contract.matched') && types.includes('contract.delivered'), types.join(', '));

    const nothingNew = await look(id);
    assert.deepEqual(nothingNew, { agents: [], queries: 1 });
  });
});
