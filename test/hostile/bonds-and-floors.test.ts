// Free keys against the parties, through the API on the real stack (app.request, a real Temporal
// server, the real ledger): each attack is performed, then the honest party's next step succeeds with
// exact balances.
// - A Client short of its Dispute Bond fails to dispute, deposits, and disputes: its failures never
//   count against it (parties are not refused for failed locks).
// - A bait bidder quotes, then tries to take its money out: the quote's bid bond stays held, so the
//   Client's owner pick of it matches (a match never fails for funds, and a failure caused by another
//   agent's money cannot count against the Client).
// - 100 fresh keys with no money quote: each is refused 402 before any Update, none takes a bidder
//   slot, and the funded bidder's quote is taken.
// - A quote of "1": its bond is minWorkerStake, so an agent with nothing cannot bid; a funded one wins
//   on that floor as its Worker Stake. A fixed price whose share rounds to 0 stakes the floor too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAppHarness } from '../support/service';
import { call } from '../api/support';
import { created, deliverAndApprove, fundedAgents, openHolds, tally } from './support';
import {
  BUDGET,
  DELIVERY_REF,
  ELIGIBILITY_STAKE,
  FUNDS,
  newAgent,
  PANEL_FEE,
  PRICE,
} from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();
const FLOOR = 100_000n;
const DISPUTE_BOND = (PRICE * 500n) / 10_000n;

describe('parties are not locked out by failure caps', () => {
  test('a Client short of its Dispute Bond fails four times, deposits, and its dispute is taken', async () => {
    const client = newAgent();
    const [worker, ...bas] = await fundedAgents(h(), 4);
    for (const ba of bas) {
      await h().fund(ba.address, ELIGIBILITY_STAKE);
      const locked = await call(h().app, ba, 'POST', '/eligibility/lock', {
        body: { amount: ELIGIBILITY_STAKE.toString() },
      });
      assert.equal(locked.status, 200, locked.text);
    }
    await h().fund(client.address, PRICE);
    const id = await created(h(), client, { awardMethod: 'direct', worker: worker!.address });
    assert.equal((await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: DELIVERY_REF,
    });
    assert.equal(delivered.status, 200, delivered.text);

    const failures = [];
    for (let i = 0; i < 4; i++)
      failures.push(await call(h().app, client, 'POST', `/contracts/${id}/disputes`, { body: {} }));
    assert.deepEqual(tally(failures), { '402 insufficient_funds': 4 });
    assert.deepEqual(await usdc(h(), client), [0n, PRICE]);

    // The Dispute Bond and the panel fee it brings are held together.
    await h().fund(client.address, DISPUTE_BOND + PANEL_FEE);
    const disputed = await call(h().app, client, 'POST', `/contracts/${id}/disputes`, { body: {} });
    assert.equal(disputed.status, 200, disputed.text);
    assert.equal(disputed.json.status, 'disputed');
    assert.equal(disputed.json.disputeBond, DISPUTE_BOND.toString());
    assert.deepEqual(await usdc(h(), client), [0n, PRICE + DISPUTE_BOND + PANEL_FEE]);
  });

  test('a bait bidder cannot take its bond away: the owner pick of it matches on the bond, nothing counts against the Client', async () => {
    const client = newAgent();
    await h().fund(client.address, BUDGET);
    const id = await created(h(), client, { contractType: 'auction', amount: BUDGET.toString() });
    const bait = newAgent();
    await h().fund(bait.address, 1_000_000n);
    const quoted = await call(h().app, bait, 'POST', `/contracts/${id}/quotes`, {
      body: { price: '1000000' },
    });
    assert.equal(quoted.status, 201, quoted.text);
    assert.equal(quoted.json.ownQuote.bidBond, FLOOR.toString());
    assert.deepEqual(await usdc(h(), bait), [1_000_000n - FLOOR, FLOOR]);

    // Everything out: refused, the bond is held. The free part leaves.
    const path = `/agents/${bait.address}/withdrawals`;
    const all = await call(h().app, bait, 'POST', path, {
      body: { amount: '1000000', destination: 'acct-bait' },
      headers: { 'Idempotency-Key': 'all' },
    });
    assert.equal(all.status, 402, all.text);
    const free = await call(h().app, bait, 'POST', path, {
      body: { amount: (1_000_000n - FLOOR).toString(), destination: 'acct-bait' },
      headers: { 'Idempotency-Key': 'free' },
    });
    assert.equal(free.status, 201, free.text);
    assert.deepEqual(await usdc(h(), bait), [0n, FLOOR]);

    // A replacement it cannot fund is refused and leaves its quote and bond as they were.
    const higher = await call(h().app, bait, 'POST', `/contracts/${id}/quotes`, {
      body: { price: '4000000' },
    });
    assert.equal(higher.status, 402, higher.text);
    assert.deepEqual(await usdc(h(), bait), [0n, FLOOR]);

    const picked = await call(h().app, client, 'POST', `/contracts/${id}/award`, {
      body: { quoteId: quoted.json.ownQuote.quoteId },
    });
    assert.equal(picked.status, 200, picked.text);
    assert.deepEqual(
      [picked.json.status, picked.json.worker, picked.json.workerStake, picked.json.escrowedFunds],
      ['matched', bait.address, FLOOR.toString(), '1000000'],
    );
    assert.deepEqual(await usdc(h(), client), [BUDGET - 1_000_000n, 1_000_000n]);
    assert.deepEqual(await usdc(h(), bait), [0n, FLOOR]);

    // The Worker never delivers; the Client's own next step, a cancel, is not its to send once
    // matched, but silence ends the contract with the stake slashed: nothing of the Client's is lost.
    const cancelled = await call(h().app, client, 'POST', `/contracts/${id}/cancel`, { body: {} });
    assert.equal(cancelled.status, 409);
  });
});

describe('free keys do not fill an auction, and no match is free', () => {
  test('100 fresh keys quote with no money: 402 each, no slot taken; the funded bidder quotes and wins', async () => {
    const [client, honest] = await fundedAgents(h(), 2);
    const id = await created(h(), client!, { contractType: 'auction', amount: BUDGET.toString() });
    const free = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(h().app, newAgent(), 'POST', `/contracts/${id}/quotes`, { body: { price: '1' } }),
      ),
    );
    assert.deepEqual(tally(free), { '402 insufficient_funds': 100 });
    const mine = await call(h().app, honest, 'POST', `/contracts/${id}/quotes`, {
      body: { price: '2000000' },
    });
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.json.quoteCount, 1);
    const awarded = await call(h().app, client, 'POST', `/contracts/${id}/award`, { body: {} });
    assert.equal(awarded.status, 200, awarded.text);
    assert.deepEqual([awarded.json.worker, awarded.json.workerStake], [honest!.address, '200000']);
    await deliverAndApprove(h(), id, honest!, client!);
    assert.deepEqual(await usdc(h(), client!), [FUNDS - 2_000_000n, 0n]);
    assert.deepEqual(await usdc(h(), honest!), [FUNDS + 2_000_000n, 0n]);
    assert.deepEqual(await openHolds(h(), id), []);
    await h().ledger.audit();
  });

  test('a quote of 1 from a zero balance is refused; from a funded bidder it holds the floor, which becomes its stake', async () => {
    const [client, bidder] = await fundedAgents(h(), 2);
    const id = await created(h(), client!, { contractType: 'auction', amount: BUDGET.toString() });
    const broke = newAgent();
    const refused = await call(h().app, broke, 'POST', `/contracts/${id}/quotes`, { body: { price: '1' } });
    assert.equal(refused.status, 402, refused.text);
    assert.equal(refused.json.error.details.bidBond, FLOOR.toString());
    const view = await call(h().app, undefined, 'GET', `/contracts/${id}`);
    assert.equal(view.json.stakeToMatch.minWorkerStake, FLOOR.toString());
    const quoted = await call(h().app, bidder, 'POST', `/contracts/${id}/quotes`, { body: { price: '1' } });
    assert.equal(quoted.status, 201, quoted.text);
    assert.deepEqual(await usdc(h(), bidder!), [FUNDS - FLOOR, FLOOR]);
    const awarded = await call(h().app, client, 'POST', `/contracts/${id}/award`, { body: {} });
    assert.deepEqual(
      [awarded.json.status, awarded.json.workerStake, awarded.json.escrowedFunds],
      ['matched', FLOOR.toString(), '1'],
    );
    const keyForBroke = await call(h().app, broke, 'GET', `/contracts/${id}/keys/materials`);
    assert.equal(keyForBroke.status, 403);
    await deliverAndApprove(h(), id, bidder!, client!);
    assert.deepEqual(await usdc(h(), client!), [FUNDS - 1n, 0n]);
    assert.deepEqual(await usdc(h(), bidder!), [FUNDS + 1n, 0n]);
    await h().ledger.audit();
  });

  test('a fixed price whose share rounds to 0 stakes the floor; an agent with less cannot accept', async () => {
    const [client, worker] = await fundedAgents(h(), 2);
    const id = await created(h(), client!, { amount: '9' });
    const poor = newAgent();
    await h().fund(poor.address, FLOOR - 1n);
    const short = await call(h().app, poor, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(short.status, 402, short.text);
    const accepted = await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual([accepted.json.status, accepted.json.workerStake], ['matched', FLOOR.toString()]);
    assert.deepEqual(await usdc(h(), worker!), [FUNDS - FLOOR, FLOOR]);
    await deliverAndApprove(h(), id, worker!, client!);
    assert.deepEqual(await usdc(h(), client!), [FUNDS - 9n, 0n]);
    assert.deepEqual(await usdc(h(), worker!), [FUNDS + 9n, 0n]);
    assert.deepEqual(await usdc(h(), poor), [FLOOR - 1n, 0n]);
    await h().ledger.audit();
  });
});
