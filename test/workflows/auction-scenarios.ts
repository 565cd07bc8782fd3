// Every path of an auction contract (AOP, AOS), driven the way the API drives it. The workflow tests
// (auction.test.ts) assert their outcomes; test/histories/record.ts saves each one's history.
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import {
  approveUpdate,
  awardUpdate,
  deliverUpdate,
  disputeUpdate,
  FailureType,
  quoteUpdate,
  withdrawUpdate,
  type ContractView,
  type QuoteInput,
} from '../../workflows/definitions';
import { assertRefused, delivery, type Harness } from './harness';
import {
  BA1,
  BA2,
  BA3,
  BUDGET,
  CLIENT,
  ELIGIBILITY_STAKE,
  HOUR,
  OTHER,
  POOR,
  WORKER,
} from '../support/fixtures';
import { finish, onlyFrom, send, started, voteAll, type Path } from './scenarios';

/** The budget cap every auction here escrows (5 USDC). */
/** A fourth Backup Agent: eligible, never a bidder. */
export const BA4 = '0x' + '4b'.repeat(20);
/** Agents holding ten times the eligibility stake, never bidders (the capture scenario). */
export const HONEST = [BA4, '0x' + '4c'.repeat(20), '0x' + '4d'.repeat(20)];
/** A third plain bidder. */
export const BIDDER = '0x' + 'f0'.repeat(20);

export const auctionTerms = (verificationMode: 'privacy-preserving' | 'standard') =>
  ({
    contractType: 'auction',
    awardMethod: 'open',
    worker: undefined,
    verificationMode,
    amount: BUDGET.toString(),
  }) as const;

const bid = (handle: WorkflowHandle, caller: string, price: bigint, extra: Partial<QuoteInput> = {}) =>
  send(handle, quoteUpdate, { caller, price: price.toString(), ...extra });

/** The live quote of a bidder, read from the Client's view. */
export async function quoteIdOf(handle: WorkflowHandle, h: Harness, bidder: string): Promise<string> {
  const found = (await h.view(handle)).quotes.find((q) => q.bidder === bidder);
  assert.ok(found, `no quote of ${bidder}`);
  return found.quoteId;
}

/** Moves past the Match Deadline and waits until the close of bidding is done. */
async function pastMatchDeadline(h: Harness, handle: WorkflowHandle): Promise<ContractView> {
  await h.sleep(HOUR);
  for (;;) {
    const view = await h.view(handle);
    if (view.status !== 'created') return view;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const AUCTION_PATHS = {
  /**
   * AOP closed at the Match Deadline. OTHER replaces its 4 USDC quote with 2 USDC; BIDDER also bids 2
   * USDC with confidence 0.8 and wins the tie (a given confidence beats none); WORKER bids 3 USDC. Bad
   * quotes (the Client's, above the cap) are refused. Matched at 2 USDC, 3 USDC refunded; approved.
   */
  async 'auction-closed-at-deadline'(h) {
    await h.fund(BIDDER, 1_000_000n);
    const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
    await bid(handle, OTHER, 4_000_000n, { message: 'I can start today' });
    await bid(handle, WORKER, 3_000_000n, { confidence: 0.5 });
    await bid(handle, OTHER, 2_000_000n);
    await bid(handle, BIDDER, 2_000_000n, { confidence: 0.8 });
    await assertRefused(bid(handle, CLIENT, 1_000_000n), FailureType.Forbidden, 'client_cannot_quote');
    await assertRefused(bid(handle, WORKER, BUDGET + 1n), FailureType.BadInput, 'over_budget');
    const open = await h.view(handle);
    assert.equal(open.quoteCount, 3);
    assert.equal((await pastMatchDeadline(h, handle)).status, 'matched');
    await assertRefused(bid(handle, WORKER, 1_000_000n), FailureType.Conflict, 'wrong_state');
    await send(handle, deliverUpdate, delivery(BIDDER));
    await send(handle, approveUpdate, { caller: CLIENT });
    return finish(input.contractId, handle);
  },

  /** AOP awarded early by the Client (no quoteId: the best quote now); no review → auto-approved. */
  async 'auction-awarded-early'(h) {
    const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
    await bid(handle, OTHER, 3_500_000n);
    await bid(handle, WORKER, 3_000_000n);
    const view = await onlyFrom(handle, awardUpdate, CLIENT, { caller: WORKER, code: 'not_client' });
    assert.equal(view.status, 'matched');
    assert.equal(view.worker, WORKER);
    await send(handle, deliverUpdate, delivery(WORKER));
    return finish(input.contractId, handle);
  },

  /** AOP: the Client picks OTHER's 4 USDC quote over WORKER's 3 USDC; OTHER then withdraws. */
  async 'auction-owner-pick'(h) {
    const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
    await bid(handle, WORKER, 3_000_000n);
    await bid(handle, OTHER, 4_000_000n);
    await assertRefused(
      send(handle, awardUpdate, { caller: CLIENT, quoteId: 'q-99' }),
      FailureType.NotFound,
      'unknown_quote',
    );
    const view = await send(handle, awardUpdate, {
      caller: CLIENT,
      quoteId: await quoteIdOf(handle, h, OTHER),
    });
    assert.equal(view.worker, OTHER);
    assert.equal(view.price, '4000000');
    await send(handle, withdrawUpdate, { caller: OTHER });
    return finish(input.contractId, handle);
  },

  /**
   * AOP: POOR cannot fund the 0.25 USDC bid bond of a 2.5 USDC quote: refused (402), nothing held, no
   * quote recorded. WORKER's 3 USDC and OTHER's 4 USDC quotes hold their bonds; at the Match Deadline
   * WORKER wins on its bond (its Worker Stake), OTHER's is released; delivered and approved.
   */
  async 'auction-bond-refused'(h) {
    const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
    await assertRefused(bid(handle, POOR, 2_500_000n), FailureType.InsufficientFunds, 'insufficient_funds');
    await bid(handle, WORKER, 3_000_000n);
    await bid(handle, OTHER, 4_000_000n);
    const open = await h.view(handle);
    assert.deepEqual(
      open.quotes.map((q) => [q.bidder, q.bidBond]),
      [
        [WORKER, '300000'],
        [OTHER, '400000'],
      ],
    );
    assert.equal((await pastMatchDeadline(h, handle)).worker, WORKER);
    await send(handle, deliverUpdate, delivery(WORKER));
    await send(handle, approveUpdate, { caller: CLIENT });
    return finish(input.contractId, handle);
  },

  /** AOS: nobody quotes; an award with nothing to award is refused; the Match Deadline → cancelled-unmatched. */
  async 'auction-no-quotes'(h) {
    const { input, handle } = await started(h, auctionTerms('standard'));
    await assertRefused(send(handle, awardUpdate, { caller: CLIENT }), FailureType.Conflict, 'no_quotes');
    return finish(input.contractId, handle);
  },

  /**
   * AOS: WORKER wins at 3 USDC over three puppet bidders (BA1–BA3) holding the minimum eligibility
   * stake and OTHER (not eligible); HONEST agents hold ten times the stake and never bid. The panel
   * drawn at delivery comes from the whole registry by free stake: bidders get no priority. Every BA
   * finds both criteria met.
   */
  async 'auction-aos-panel'(h) {
    await h.makeEligible([BA1, BA2, BA3]);
    await h.makeEligible(HONEST, 10n * ELIGIBILITY_STAKE);
    const { input, handle } = await started(h, auctionTerms('standard'));
    await bid(handle, BA1, 3_500_000n);
    await bid(handle, OTHER, 4_000_000n);
    await bid(handle, WORKER, 3_000_000n);
    await bid(handle, BA2, 4_500_000n);
    await bid(handle, BA3, 4_600_000n);
    await send(handle, awardUpdate, { caller: CLIENT });
    const view = await send(handle, deliverUpdate, delivery(WORKER));
    assert.equal(view.backupAgents.length, 3);
    await voteAll(
      handle,
      view.backupAgents.map((ba) => [ba, ['met', 'met']]),
    );
    return finish(input.contractId, handle);
  },

  /** AOP: WORKER matched at 4 USDC; the Client disputes (bond on the 4 USDC escrow); the panel finds nothing met. */
  async 'auction-aop-dispute'(h) {
    await h.makeEligible();
    const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
    await bid(handle, WORKER, 4_000_000n);
    await pastMatchDeadline(h, handle);
    await send(handle, deliverUpdate, delivery(WORKER));
    const disputed = await send(handle, disputeUpdate, { caller: CLIENT });
    assert.equal(disputed.disputeBond, '200000');
    await voteAll(handle, [
      [BA1, ['not met', 'not met']],
      [BA2, ['not met', 'not met']],
      [BA3, ['not met', 'not met']],
    ]);
    return finish(input.contractId, handle);
  },

  /**
   * AOP whose only quote (9 minor units) would stake 0 at the rate: its bid bond is the floor,
   * minWorkerStake (0.1 USDC), matched at the Match Deadline as the Worker Stake; OTHER never delivers
   * and the contract ends cancelled-absent, the floor slashed.
   */
  async 'auction-minimum-stake'(h) {
    const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
    await bid(handle, OTHER, 9n);
    const matched = await pastMatchDeadline(h, handle);
    assert.deepEqual([matched.status, matched.workerStake], ['matched', '100000']);
    return finish(input.contractId, handle);
  },
} satisfies Record<string, Path>;

export type AuctionPathName = keyof typeof AUCTION_PATHS;
