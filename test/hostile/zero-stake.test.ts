// A zero Worker Stake through the API (dev server, real ledger): a price whose Worker Stake rounds to 0 is
// matched with no stake hold (the ledger refuses a zero hold, so a lock is not attempted), and the
// contract settles or ends with exact balances and nothing held.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAppHarness } from '../support/service';
import { call } from '../api/support';
import { created, deliverAndApprove, fundedAgents, openHolds } from './support';
import { FUNDS } from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();

describe('a Worker Stake that rounds to 0', () => {
  test('fixed price of 9 minor units: accept holds no stake, deliver, approve → settled-fully-met, exact balances', async () => {
    const [client, worker] = await fundedAgents(h(), 2);
    const id = await created(h(), client!, { amount: '9' });
    const accepted = await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual([accepted.json.status, accepted.json.workerStake], ['matched', '0']);
    assert.deepEqual(await usdc(h(), worker!), [FUNDS, 0n]);

    await deliverAndApprove(h(), id, worker!, client!);
    assert.deepEqual(await usdc(h(), client!), [FUNDS - 9n, 0n]);
    assert.deepEqual(await usdc(h(), worker!), [FUNDS + 9n, 0n]);
    assert.deepEqual(await openHolds(h(), id), []);
    await h().ledger.audit();
  });

  test('an auction won by a 5-unit quote: no stake hold; the Worker withdraws → cancelled-withdrawn, all back', async () => {
    const [client, bidder] = await fundedAgents(h(), 2);
    const id = await created(h(), client!, { contractType: 'auction', amount: '5000000' });
    const quoted = await call(h().app, bidder, 'POST', `/contracts/${id}/quotes`, { body: { price: '5' } });
    assert.equal(quoted.status, 201, quoted.text);
    const awarded = await call(h().app, client, 'POST', `/contracts/${id}/award`, { body: {} });
    assert.equal(awarded.status, 200, awarded.text);
    assert.deepEqual(
      [awarded.json.status, awarded.json.worker, awarded.json.workerStake, awarded.json.escrowedFunds],
      ['matched', bidder!.address, '0', '5'],
    );
    assert.deepEqual(await usdc(h(), client!), [FUNDS - 5n, 5n]);

    const withdrawn = await call(h().app, bidder, 'POST', `/contracts/${id}/withdraw`, { body: {} });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.equal(withdrawn.json.status, 'cancelled-withdrawn');
    assert.deepEqual(await usdc(h(), client!), [FUNDS, 0n]);
    assert.deepEqual(await usdc(h(), bidder!), [FUNDS, 0n]);
    assert.deepEqual(await openHolds(h(), id), []);
    await h().ledger.audit();
  });
});
