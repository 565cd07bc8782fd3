// End to end on the dev server, through the SDK over HTTP: an AOS auction with ten bidders, each holding
// the BA Eligibility Stake. The Client sees every quote, a bidder only its own, the listing only the
// count; the Client awards the best quote; the Worker delivers; the panel is drawn from the nine losing
// bidders (recomputed from the event log) and votes; the contract settles fully met, with the exact USDC
// and OCT balances of every party.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ContractEvent } from '../../sdk/typescript/types';
import { drawFromCandidates } from '../../workflows/rules/draw';
import { useServiceHarness } from '../support/service';
import {
  agent,
  balancesOf,
  DELIVERY,
  fixedTerms,
  fund,
  sharedAccounts,
  sharedAccountsChange,
} from './support';
import { BUDGET, ELIGIBILITY_STAKE, FEE_SHARE, FUNDS, PANEL_FEE, REWARD } from '../support/fixtures';
import { eventually } from '../support/eventually';

const h = useServiceHarness();

type Agent = ReturnType<typeof agent>;

const BIDDER_FUNDS = 120_000_000n;
/** Bidder i quotes 2 USDC + i × 0.1 USDC: bidder 0 is the best. */
const priceOf = (i: number) => 2_000_000n + BigInt(i) * 100_000n;
const WINNING = priceOf(0);

describe('an AOS auction end to end', () => {
  test('ten bidders, award of the best quote, a panel of losing bidders, settled fully met', async () => {
    const client = agent(h());
    const shared = await sharedAccounts(h());
    await fund(h(), client.address);
    const bidders: Agent[] = Array.from({ length: 10 }, () => agent(h()));
    for (const bidder of bidders) {
      await fund(h(), bidder.address, BIDDER_FUNDS);
      await bidder.lockEligibility(ELIGIBILITY_STAKE.toString());
    }

    const { supplementaryMaterials: _none, ...terms } = fixedTerms();
    const created = await client.createContract({
      ...terms,
      contractType: 'auction',
      awardMethod: 'open',
      verificationMode: 'standard',
      amount: BUDGET.toString(),
    });
    assert.equal(created.contractCode, 'AOS');
    const id = created.contractId;

    // Quotes arrive worst first; bidder 3 first bids above its final price and replaces it.
    await bidders[3]!.quote(id, { price: '4900000' });
    for (let i = bidders.length - 1; i >= 0; i--) {
      const answer = await bidders[i]!.quote(id, { price: priceOf(i).toString(), confidence: 0.5 });
      assert.equal(answer.ownQuote?.price, priceOf(i).toString());
      assert.equal(answer.view, 'public');
    }
    const forClient = await client.getContract(id);
    assert.ok(forClient.view === 'party');
    assert.equal(forClient.quotes?.length, 10);
    assert.equal(forClient.quoteCount, 10);
    const forBidder = await bidders[5]!.getContract(id);
    assert.equal(forBidder.view, 'public');
    assert.equal('quotes' in forBidder, false);
    assert.equal(forBidder.ownQuote?.price, priceOf(5).toString());

    const listed = await eventually(
      () => client.listContracts({ contractType: 'auction', status: 'created' }),
      (l) => l.some((c) => c.contractId === id && c.quoteCount === 10),
    );
    assert.equal(JSON.stringify(listed).includes(WINNING.toString()), false);

    const matched = await client.award(id);
    assert.equal(matched.status, 'matched');
    const [winner, ...losers] = bidders as [Agent, ...Agent[]];
    assert.ok(matched.view === 'party');
    assert.deepEqual(
      [matched.worker, matched.price, matched.escrowedFunds],
      [winner.address, WINNING.toString(), WINNING.toString()],
    );
    // A standard-mode contract: the panel fee is held with the escrow from its creation.
    assert.deepEqual(await balancesOf(client), [FUNDS - WINNING - PANEL_FEE, WINNING + PANEL_FEE, 0n, 0n]);

    const delivered = await winner.deliver(id, DELIVERY);
    assert.equal(delivered.status, 'under-review');
    assert.ok(delivered.view === 'party');
    const panel = delivered.backupAgents;
    assert.equal(panel.length, 3);
    const loserAddresses: string[] = losers.map((l) => l.address);

    const { events } = await client.getEvents(id);
    const drawn = events.find((e: ContractEvent) => e.type === 'contract.panel-drawn');
    assert.ok(drawn?.type === 'contract.panel-drawn');
    // Bidders get no priority: each eligible loser is a candidate at its free stake, like any agent.
    for (const address of loserAddresses) {
      assert.deepEqual(
        drawn.candidates.find((c) => c.address === address),
        { address, stake: ELIGIBILITY_STAKE.toString() },
      );
    }
    assert.deepEqual(drawFromCandidates({ ...drawn, deliveryHash: drawn.deliverySha256 }).panel, drawn.panel);

    const seated = losers.filter((l) => panel.includes(l.address));
    for (const ba of seated) await ba.vote(id, ['met', 'met']);
    // Both parties waive their appeal: the tally settles at once.
    await client.appeal(id, { waive: true });
    await winner.appeal(id, { waive: true });
    const settled = await eventually(
      () => client.getContract(id),
      (v) => v.status.startsWith('settled-'),
    );
    assert.equal(settled.status, 'settled-fully-met');

    assert.deepEqual(await balancesOf(client), [FUNDS - WINNING - PANEL_FEE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(winner), [
      BIDDER_FUNDS - ELIGIBILITY_STAKE + WINNING,
      ELIGIBILITY_STAKE,
      0n,
      0n,
    ]);
    for (const loser of losers) {
      const seated = panel.includes(loser.address);
      const tokens = seated ? 2n * REWARD : 0n;
      assert.deepEqual(await balancesOf(loser), [
        BIDDER_FUNDS - ELIGIBILITY_STAKE + (seated ? FEE_SHARE : 0n),
        ELIGIBILITY_STAKE,
        tokens,
        0n,
      ]);
    }
    // Nothing to the treasury; the panel's 3 × 2 rewards minted.
    assert.deepEqual(await sharedAccountsChange(h(), shared), [0n, 0n, 0n, 0n, -(6n * REWARD)]);
    assert.ok((await h().ledger().holdsByContract(id)).every((hold) => hold.status === 'resolved'));
    await h().ledger().audit();
  });
});
