// Auctions (docs/protocol.md §5, §8) on the time-skipping server with the real ledger on SQLite: quotes, the close
// of bidding at the deadline or by award, owner pick, the stake fallback, the match refund, the BA pool
// drawn from the remaining bidders; exact USDC (and OCT) balances of every party.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cancelUpdate,
  eventsQuery,
  FailureType,
  quoteSignal,
  quoteUpdate,
  type ContractView,
} from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';
import { drawFromCandidates } from '../../workflows/rules/draw';
import { quoteCountKey } from '../../workflows/search-attributes';
import { AUCTION_PATHS, BIDDER, HONEST, auctionTerms } from './auction-scenarios';
import { assertRefused, useWorkflowSuite, type Harness } from './harness';
import {
  BA1,
  BA2,
  BA3,
  BA_FUNDS,
  BUDGET,
  CLIENT,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  OTHER,
  PANEL_FEE,
  POOR,
  REWARD,
  WORKER,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import type { PathRun } from './scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

/** A BA that sat on the panel and voted: its stake untouched, its share of the panel fee earned. */
const paidBA = b(BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE);

function assertStatus(run: PathRun, status: string): void {
  assert.equal(run.outcome?.created && run.outcome.status, status);
}

async function events(run: PathRun): Promise<ContractEvent[]> {
  return run.handle.query(eventsQuery);
}

async function matchedEvent(run: PathRun) {
  const matched = (await events(run)).find((e) => e.type === 'contract.matched');
  assert.ok(matched?.type === 'contract.matched');
  return matched;
}

/** The escrow holds of a contract as [id, amount, status]: the budget-cap hold and, after a refund, the price's. */
async function escrowHolds(h: Harness, contractId: string) {
  return (await h.ledger.holdsByContract(contractId))
    .filter((x) => x.kind === 'escrow')
    .map((x) => [x.id, x.amount, x.status]);
}

describe('auctions (time-skipping server, real ledger on SQLite)', () => {
  test('closed at the Match Deadline: best quote (price, then confidence), replacement, 3 USDC refunded at match', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-closed-at-deadline'](h);
      assertStatus(run, 'settled-fully-met');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - 2_000_000n),
        [BIDDER]: b(1_000_000n + 2_000_000n),
        [WORKER]: b(WORKER_FUNDS),
        [OTHER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
      await h.ledger.audit();
      assert.deepEqual(await escrowHolds(h, run.contractId), [
        [`${run.contractId}:escrow`, BUDGET, 'resolved'],
        [`${run.contractId}:match:1`, 2_000_000n, 'resolved'],
      ]);
      const view = await h.view(run.handle);
      assert.equal(view.price, '2000000');
      assert.equal(view.budget, BUDGET.toString());
      assert.equal(view.escrowedFunds, '2000000');
      assert.equal(view.workerStake, '200000');
      assert.equal(view.worker, BIDDER);
      assert.equal(view.quoteCount, 3);
      // OTHER's 4 USDC quote was replaced by its 2 USDC one.
      assert.deepEqual(
        view.quotes.map((q) => [q.bidder, q.price, q.confidence, q.message]),
        [
          [WORKER, '3000000', 0.5, null],
          [OTHER, '2000000', null, null],
          [BIDDER, '2000000', 0.8, null],
        ],
      );
      assert.equal(view.winningQuoteId, view.quotes[2]!.quoteId);
      const matched = await matchedEvent(run);
      assert.deepEqual(
        [
          matched.via,
          matched.actor,
          matched.quoteId,
          matched.price,
          matched.workerStake,
          matched.refundedToClient,
        ],
        ['best-quote', 'system', view.winningQuoteId, '2000000', '200000', '3000000'],
      );
      // Sealed bids: the log says who quoted, never a price.
      const quotes = (await events(run)).filter((e) => e.type === 'contract.quote-received');
      assert.deepEqual(
        quotes.map((e) => e.actor),
        [OTHER, WORKER, OTHER, BIDDER],
      );
      for (const e of quotes)
        assert.deepEqual(Object.keys(e).sort(), ['actor', 'at', 'contractId', 'quoteId', 'type']);
      const attributes = (await run.handle.describe()).typedSearchAttributes;
      assert.equal(attributes.get(quoteCountKey), 3);
    }));

  test('awarded early by the Client: the best quote now, 2 USDC refunded, auto-approved', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-awarded-early'](h);
      assertStatus(run, 'settled-fully-met');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - 3_000_000n),
        [WORKER]: b(WORKER_FUNDS + 3_000_000n),
        [OTHER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
      const matched = await matchedEvent(run);
      assert.deepEqual(
        [matched.via, matched.actor, matched.price, matched.refundedToClient],
        ['best-quote', CLIENT, '3000000', '2000000'],
      );
    }));

  test('owner pick of a non-best quote: matched at its price; its withdrawal slashes the stake on that price', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-owner-pick'](h);
      assertStatus(run, 'cancelled-withdrawn');
      const slash = 80_000n; // withdrawalSlashBps (20%) of the 0.4 USDC stake on 4 USDC
      await h.assertBalances({
        [CLIENT]: b(FUNDS + slash),
        [OTHER]: b(WORKER_FUNDS - slash),
        [WORKER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
      const matched = await matchedEvent(run);
      assert.deepEqual(
        [matched.via, matched.worker, matched.price, matched.workerStake, matched.refundedToClient],
        ['owner-pick', OTHER, '4000000', '400000', '1000000'],
      );
    }));

  test('a bidder that cannot fund its bid bond is refused at its quote (402, nothing held); the deadline matches on the bonds held', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-bond-refused'](h);
      assertStatus(run, 'settled-fully-met');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - 3_000_000n),
        [WORKER]: b(WORKER_FUNDS + 3_000_000n),
        [POOR]: b(WORKER_STAKE - 1n),
        [OTHER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
      // Two bonds were held (WORKER's became its stake, OTHER's was released at the match); none of POOR's.
      const stakes = (await h.ledger.holdsByContract(run.contractId)).filter((x) => x.kind === 'stake');
      assert.deepEqual(
        stakes.map((x) => [x.owner, x.amount]).sort(),
        [
          [`agent:${OTHER}`, 400_000n],
          [`agent:${WORKER}`, 300_000n],
        ].sort(),
      );
      const matched = await matchedEvent(run);
      assert.deepEqual(
        [matched.via, matched.worker, matched.price, matched.workerStake],
        ['best-quote', WORKER, '3000000', '300000'],
      );
      const rejected = (await events(run)).filter((e) => e.type === 'contract.message-rejected');
      assert.deepEqual(
        rejected.map((e) => e.type === 'contract.message-rejected' && [e.message, e.code, e.actor]),
        [['quote', 'insufficient_funds', POOR]],
      );
    }));

  test('no quotes: the award is refused, the Match Deadline cancels unmatched, the budget comes back', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-no-quotes'](h);
      assertStatus(run, 'cancelled-unmatched');
      await h.assertBalances({ [CLIENT]: b(FUNDS), treasury: b(0n) });
      await h.assertNothingPending(run.contractId);
      const view = await h.view(run.handle);
      assert.equal(view.cancellationReason, 'unmatched');
      assert.equal(view.quoteCount, 0);
      assert.equal(view.price, null);
    }));

  test('AOS: puppet bidders get no priority; the panel is drawn from the whole registry by free stake', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-aos-panel'](h);
      assertStatus(run, 'settled-fully-met');
      const view: ContractView = await h.view(run.handle);
      assert.equal(view.contractCode, 'AOS');
      const drawn = (await events(run)).find((e) => e.type === 'contract.panel-drawn');
      assert.ok(drawn?.type === 'contract.panel-drawn');
      // Every drawable agent is a candidate at its free stake: the three puppets among them, no pool first.
      const puppets = [BA1, BA2, BA3];
      const stakeOf = (a: string) =>
        (puppets.includes(a as (typeof puppets)[number])
          ? ELIGIBILITY_STAKE
          : 10n * ELIGIBILITY_STAKE
        ).toString();
      assert.deepEqual(
        drawn.candidates,
        [...puppets, ...HONEST].sort().map((address) => ({ address, stake: stakeOf(address) })),
      );
      assert.deepEqual(
        drawFromCandidates({ ...drawn, deliveryHash: drawn.deliverySha256 }).panel,
        drawn.panel,
      );
      // Puppets hold 300 of the 3300 USDC drawable stake: the odds of a puppet majority are in test/rules/draw.test.ts.
      const idle = [...puppets, ...HONEST].filter((a) => !drawn.panel.includes(a as never));
      // The Client paid the standard panel's fee at creation; each drawn BA voted and earned its share.
      const feeOf = (a: string) => (drawn.panel.includes(a as never) ? FEE_SHARE : 0n);
      await h.assertBalances({
        [CLIENT]: b(FUNDS - 3_000_000n - PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS + 3_000_000n),
        [OTHER]: b(WORKER_FUNDS),
        ...Object.fromEntries(
          puppets.map((a) => [a, b(BA_FUNDS - ELIGIBILITY_STAKE + feeOf(a), ELIGIBILITY_STAKE)]),
        ),
        ...Object.fromEntries(
          HONEST.map((a) => [a, b(BA_FUNDS - ELIGIBILITY_STAKE + feeOf(a), 10n * ELIGIBILITY_STAKE)]),
        ),
        treasury: b(0n),
      });
      for (const ba of drawn.panel) assert.equal(await h.tokens(ba), 2n * REWARD, `OCT of ${ba}`);
      for (const ba of idle) assert.equal(await h.tokens(ba), 0n);
      await h.assertNothingPending(run.contractId);
      await h.ledger.audit();
    }));

  test('AOP with a dispute: the Dispute Bond is on the winning price; none met slashes the stake on that price', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-aop-dispute'](h);
      assertStatus(run, 'settled-none-met');
      const stake = 400_000n; // 10% of the 4 USDC winning price
      const toClient = 320_000n; // absentSlashClientBps (80%) of it
      // The disputer's panel fee went to the three BAs, who all voted.
      await h.assertBalances({
        [CLIENT]: b(FUNDS + toClient - PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS - stake),
        treasury: b(stake - toClient),
        [BA1]: paidBA,
        [BA2]: paidBA,
        [BA3]: paidBA,
      });
      for (const ba of [BA1, BA2, BA3]) assert.equal(await h.tokens(ba), 2n * REWARD);
      await h.assertNothingPending(run.contractId);
      await h.ledger.audit();
      const view = await h.view(run.handle);
      assert.deepEqual([view.escrowedFunds, view.disputeBond, view.payment], ['4000000', '200000', '0']);
    }));

  test('bad quotes change nothing: above the cap, from the Client, malformed, on a fixed price, after close; a signal is logged', () =>
    withHarness(async (h) => {
      const input = await h.input(auctionTerms('privacy-preserving'));
      const { handle } = await h.create(input);
      const q = (caller: string, price: string, extra: object = {}) =>
        handle.executeUpdate(quoteUpdate, { args: [{ caller, price, ...extra }] });
      await assertRefused(q(WORKER, (BUDGET + 1n).toString()), FailureType.BadInput, 'over_budget');
      await assertRefused(q(CLIENT, '1000000'), FailureType.Forbidden, 'client_cannot_quote');
      await assertRefused(q(WORKER, '1.5'), FailureType.BadInput, 'invalid_input');
      await assertRefused(q(WORKER, '0'), FailureType.BadInput, 'invalid_input');
      await assertRefused(q(WORKER, '1000000', { confidence: 1.5 }), FailureType.BadInput, 'invalid_input');
      await assertRefused(
        q(WORKER, '1000000', { message: 'x'.repeat(2001) }),
        FailureType.BadInput,
        'invalid_input',
      );
      await handle.signal(quoteSignal, { caller: CLIENT, price: '1000000' });
      const during = await h.view(handle);
      assert.deepEqual([during.status, during.quoteCount, during.quotes], ['created', 0, []]);
      const rejected = (await handle.query(eventsQuery)).filter(
        (e) => e.type === 'contract.message-rejected',
      );
      assert.deepEqual(
        rejected.map((e) => e.type === 'contract.message-rejected' && [e.message, e.code]),
        [['quote', 'client_cannot_quote']],
      );
      await h.assertBalances({ [CLIENT]: b(FUNDS - BUDGET, BUDGET), [WORKER]: b(WORKER_FUNDS) });

      const fixed = await h.create(await h.input());
      await assertRefused(
        fixed.handle.executeUpdate(quoteUpdate, { args: [{ caller: OTHER, price: '1000' }] }),
        FailureType.Conflict,
        'not_an_auction',
      );
      await fixed.handle.executeUpdate(cancelUpdate, { args: [{ caller: CLIENT }] });

      // After the close (no quotes: cancelled-unmatched, the workflow completed): the server refuses.
      assert.equal((await handle.result()).created, true);
      await assert.rejects(q(WORKER, '1000000'));
      await h.assertBalances({ [CLIENT]: b(FUNDS), [WORKER]: b(WORKER_FUNDS) });
    }));
});
