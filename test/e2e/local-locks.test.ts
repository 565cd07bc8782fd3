// The holds of messages that cannot race, locked as local activities inside the message's own
// workflow task (workflows/contract/activity-proxies.ts messageLock; docs/performance.md §3): on the
// dev server, through the API, several of them at once. The named Worker of a direct award sends
// several accepts at once: one stake is held, once. The drawn panel votes all at once: one bond each,
// the tally settles once, every balance exact and no hold left open.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentApiError } from '../../sdk/typescript';
import { useServiceHarness } from '../support/service';
import { agent, balancesOf, DELIVERY, eventually, fixedTerms, fund } from './support';
import {
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  PANEL_FEE,
  PRICE,
  REWARD,
  WORKER_STAKE,
} from '../support/fixtures';

const h = useServiceHarness();
const ACCEPTS = 8;
const BA_FUNDS = 120_000_000n;

/** Every refusal of a message sent again while the first is in flight or done: 409 or 429, nothing else. */
function assertRefusedOnly(results: PromiseSettledResult<unknown>[]): void {
  for (const r of results) {
    if (r.status === 'fulfilled') continue;
    const err = r.reason as unknown;
    assert.ok(err instanceof AgentApiError, String(err));
    assert.ok(err.status === 409 || err.status === 429, `${err.status} ${err.code}: ${err.message}`);
  }
}

describe('locks made by messages that cannot race', () => {
  test(`the named Worker sends ${ACCEPTS} accepts of a direct award at once: one stake, held once`, async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const { contractId: id } = await client.createContract(fixedTerms(worker.address));

    const results = await Promise.allSettled(Array.from({ length: ACCEPTS }, () => worker.accept(id)));
    assert.ok(
      results.some((r) => r.status === 'fulfilled'),
      'one accept answers the match',
    );
    assertRefusedOnly(results);
    const view = await client.getContract(id);
    assert.equal(view.status, 'matched');
    assert.equal(view.view === 'party' && view.worker, worker.address);
    const stakes = (await h().ledger().holdsByContract(id)).filter((x) => x.kind === 'stake');
    assert.deepEqual(
      stakes.map((x) => [x.owner, x.status]),
      [[`agent:${worker.address}`, 'open']],
    );
    assert.deepEqual(await balancesOf(worker), [FUNDS - WORKER_STAKE, WORKER_STAKE, 0n, 0n]);

    await worker.deliver(id, DELIVERY);
    await client.approve(id);
    await eventually(
      () => client.getContract(id),
      (v) => v.status === 'settled-fully-met',
    );
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(worker), [FUNDS + PRICE, 0n, 0n, 0n]);
    assert.ok((await h().ledger().holdsByContract(id)).every((x) => x.status === 'resolved'));
  });

  test('two disputes at once, then the drawn Backup Agents vote twice each at once: one bond each, one tally', async () => {
    const client = agent(h());
    const worker = agent(h());
    const bas = [agent(h()), agent(h()), agent(h())];
    await fund(h(), client.address);
    await fund(h(), worker.address);
    for (const ba of bas) {
      await fund(h(), ba.address, BA_FUNDS);
      await ba.lockEligibility(ELIGIBILITY_STAKE.toString());
    }
    const { contractId: id } = await client.createContract(fixedTerms(worker.address));
    await worker.accept(id);
    await worker.deliver(id, DELIVERY);
    // The Client disputes twice at once: one dispute, one bond.
    const disputes = await Promise.allSettled([client.dispute(id), client.dispute(id)]);
    assertRefusedOnly(disputes);
    assert.ok(disputes.some((r) => r.status === 'fulfilled'));
    assert.equal((await client.getContract(id)).status, 'disputed');
    // One dispute: one bond and one panel fee held.
    assert.deepEqual(await balancesOf(client), [
      FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE,
      PRICE + DISPUTE_BOND + PANEL_FEE,
      0n,
      0n,
    ]);

    // Each BA votes twice at once as well: its second vote is refused, its bond held once.
    const votes = bas.flatMap((ba) => [ba.vote(id, ['met', 'met']), ba.vote(id, ['met', 'met'])]);
    const results = await Promise.allSettled(votes);
    assertRefusedOnly(results);
    for (const [i, ba] of bas.entries()) {
      const own = results.slice(2 * i, 2 * i + 2).filter((r) => r.status === 'fulfilled');
      assert.ok(own.length >= 1, `BA ${ba.address}'s vote is taken`);
    }
    // Both parties waive their appeal at once: the tally settles once.
    assertRefusedOnly(
      await Promise.allSettled([client.appeal(id, { waive: true }), worker.appeal(id, { waive: true })]),
    );
    const settled = await eventually(
      () => client.getContract(id),
      (v) => v.status.startsWith('settled-'),
    );
    assert.equal(settled.status, 'settled-fully-met');

    const holds = await h().ledger().holdsByContract(id);
    const bonds = holds.filter((x) => x.kind === 'ba-bond').map((x) => x.owner);
    assert.deepEqual(bonds.sort(), bas.map((ba) => `agent:${ba.address}`).sort());
    assert.equal(holds.filter((x) => x.id.includes(':dispute-bond:')).length, 1);
    assert.equal(holds.filter((x) => x.id.endsWith(':panel-fee:panel')).length, 1);
    assert.ok(holds.every((x) => x.status === 'resolved'));
    // Fully met: the Worker is paid the price, the unfounded Dispute Bond goes to the treasury; each
    // BA's bond comes back with a reward per criterion, its eligibility stake stays locked.
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(worker), [FUNDS + PRICE, 0n, 0n, 0n]);
    for (const ba of bas) {
      assert.deepEqual(await balancesOf(ba), [
        BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE,
        ELIGIBILITY_STAKE,
        2n * REWARD,
        0n,
      ]);
    }
  });
});
