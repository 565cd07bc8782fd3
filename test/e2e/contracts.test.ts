// End to end on the dev server, through the SDK over HTTP: FDP and FOP from creation to
// settled-fully-met, and the same FOP with the API and the worker restarted after the match.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useServiceHarness } from '../support/service';
import { agent, DELIVERY, expectApiError, fixedTerms, fund, reconnect } from './support';
import { FUNDS, PRICE } from '../support/fixtures';
import { usdc } from '../support/balances';
import { eventually } from '../support/eventually';

const h = useServiceHarness();

/** USDC of an agent as [available, held]. */
const STAKE = PRICE / 10n; // workerStakeBps 1000

async function deliverAndApprove(
  id: string,
  client: ReturnType<typeof agent>,
  worker: ReturnType<typeof agent>,
): Promise<void> {
  const materials = await worker.getMaterialsKey(id);
  assert.equal(materials.key, 'materials-secret-key');
  const delivered = await worker.deliver(id, DELIVERY);
  assert.equal(delivered.status, 'under-review');
  assert.equal((await client.getDeliveryKey(id)).key, 'delivery-secret-key');
  await client.approve(id);
  const settled = await eventually(
    () => client.getContract(id),
    (v) => v.status === 'settled-fully-met',
  );
  assert.equal(settled.view, 'party');
  if (settled.view === 'party') {
    assert.deepEqual(settled.criteriaMet, ['met', 'met']);
    assert.equal(settled.payment, PRICE.toString());
  }
}

async function assertFullyMetBalances(client: string, worker: string): Promise<void> {
  assert.deepEqual(await usdc(h(), client), [FUNDS - PRICE, 0n]);
  assert.deepEqual(await usdc(h(), worker), [FUNDS + PRICE, 0n]);
}

describe('fixed price, privacy-preserving review, to settled-fully-met', () => {
  test('FDP: direct award', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);

    const created = await client.createContract(fixedTerms(worker.address));
    assert.equal(created.status, 'created');
    assert.equal(created.contractCode, 'FDP');
    assert.deepEqual(await usdc(h(), client.address), [FUNDS - PRICE, PRICE]);
    // The named Worker may not read the materials before it accepts.
    await expectApiError(worker.getMaterialsKey(created.contractId), 403);

    const matched = await worker.accept(created.contractId);
    assert.equal(matched.status, 'matched');
    assert.deepEqual(await usdc(h(), worker.address), [FUNDS - STAKE, STAKE]);

    await deliverAndApprove(created.contractId, client, worker);
    await assertFullyMetBalances(client.address, worker.address);
    const { events } = await client.getEvents(created.contractId);
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t.startsWith('contract.')),
      ['contract.created', 'contract.matched', 'contract.delivered', 'contract.resolved', 'contract.settled'],
    );
  });

  test('FOP: open tender, found through the listing', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);

    const created = await client.createContract(fixedTerms());
    assert.equal(created.contractCode, 'FOP');
    const listed = await eventually(
      () => worker.listContracts(),
      (list) => list.some((c) => c.contractId === created.contractId),
    );
    assert.equal(listed.find((c) => c.contractId === created.contractId)?.status, 'created');
    const seen = await worker.getContract(created.contractId);
    assert.equal(seen.view, 'public');

    await worker.accept(created.contractId);
    await deliverAndApprove(created.contractId, client, worker);
    await assertFullyMetBalances(client.address, worker.address);
    // Settled contracts leave the open-tender listing.
    await eventually(
      () => worker.listContracts(),
      (list) => !list.some((c) => c.contractId === created.contractId),
    );
  });

  test('FOP with the API and the worker restarted after the match: the same balances', async () => {
    let client = agent(h());
    let worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const created = await client.createContract(fixedTerms());
    await worker.accept(created.contractId);

    await h().restart();
    client = reconnect(h(), client);
    worker = reconnect(h(), worker);

    assert.equal((await client.getContract(created.contractId)).status, 'matched');
    await deliverAndApprove(created.contractId, client, worker);
    await assertFullyMetBalances(client.address, worker.address);
    const holds = await h().ledger().holdsByContract(created.contractId);
    assert.ok(holds.every((hold) => hold.status === 'resolved'));
  });
});
