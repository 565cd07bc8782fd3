// What a feed projector's look at a contract costs the contract's worker: nothing. The projector reads the
// contract read model (view, event log and ballots cast, written by the workflow before each Update
// answered), and the API it runs beside sends no query either. A projector of its own on the read model,
// an API on a Temporal client that counts the queries it sends, a real dev server, worker and feed store.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createFeedProjector, readModelSource } from '../../store/agent-feed/projector';
import { openFeed } from '../../store/agent-feed';
import { appOn, makeDir, TASK_QUEUE, useAppHarness, type AppHarness } from '../support/service';
import { queryCountingClient } from '../support/query-counting-client';
import { call } from '../api/support';
import { openApiStores, closeApiStores } from '../../store';
import { contractBody, DELIVERY_REF, FUNDS, newAgent } from '../support/fixtures';

const h = useAppHarness();

async function countedProjector(harness: AppHarness) {
  const { dir, remove } = makeDir('projector-queries');
  const stores = openApiStores(dir, harness.settings.vaultMasterKey);
  after(() => {
    closeApiStores(stores);
    remove();
  });
  const { temporal, queries } = queryCountingClient(harness);
  const app = appOn(
    harness.env,
    harness.settings,
    {
      ledger: harness.ledger,
      records: harness.records,
      stores: { ...stores, vault: harness.vault },
      taskQueue: TASK_QUEUE,
    },
    { temporal },
  );
  const store = await openFeed({ dataDir: dir, ledger: { kind: 'sqlite' } });
  const projector = createFeedProjector({ store, source: readModelSource(harness.records) });
  /** One look: the agents that got new entries. */
  const look = (contractId: string) => projector.sync(contractId);
  return { app, store, look, queries };
}

describe("a projector's look at a contract", () => {
  test('costs no query, from creation to delivery, and writes what is new right after each answer', async () => {
    const client = newAgent();
    const worker = newAgent();
    await h().fund(client.address, FUNDS);
    await h().fund(worker.address, FUNDS);
    const { app, store, look, queries } = await countedProjector(h());

    const created = await call(app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json.contractId;
    const first = await look(id);
    assert.deepEqual(new Set(first), new Set([client.address, worker.address]));

    const accepted = await call(app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    const delivered = await call(app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { ...DELIVERY_REF, content: { text: 'done' } },
    });
    assert.equal(delivered.status, 200, delivered.text);
    await look(id);
    const types = (await store.read(client.address, 0, 50))
      .filter((e) => e.contractId === id)
      .map((e) => e.event?.type);
    assert.ok(types.includes('contract.matched') && types.includes('contract.delivered'), types.join(', '));

    assert.deepEqual(await look(id), [], 'nothing new');
    assert.equal(queries(), 0, 'the API and the projector sent no workflow query');
  });
});
