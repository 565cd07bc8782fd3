// Closing an auction's bidding (SPEC §5): at the Match Deadline or when the Client awards. The best
// quote wins (rules/auction matchOrder: lowest price, then higher confidence, then earliest); if its
// bidder cannot fund the Worker Stake (computed on its price), the next best; none left →
// `cancelled-unmatched`. An owner pick tries only the picked quote: if that stake lock fails the award is
// refused (402) and bidding stays open. At the match the escrow shrinks to the winning price in one
// ledger batch (the budget-cap hold voided, the price held again), and the other bidders become the
// contract's BA pool (drawn from first, panel.ts).
import { condition } from '@temporalio/workflow';
import { FailureType, type AwardInput } from '../definitions';
import { matchOrder, remainingBidders } from '../rules/auction';
import { contractMatchedEvent } from '../rules/event-constructors';
import { type Actor, type MatchedVia } from '../rules/events';
import { auctionMatchRefund, workerStakeFor } from '../rules/holds';
import { toWire } from '../rules/money';
import { scheduled } from './activity-proxies';
import { validateAward } from './bidding';
import { isInsufficientFunds, reject, rejection } from './rejection';
import type { AuctionQuote, Contract, StakeHold } from './state';
import { callerOf } from './validators';
import { lockWorkerStake, stakeIsNoHold } from './worker-stake';

type Pick = { via: 'best-quote' } | { via: 'owner-pick'; quoteId: string };

/** Locks the bidder's Worker Stake on its quoted price; null when it cannot fund it (nothing locked). */
async function tryLockStake(c: Contract, q: AuctionQuote): Promise<StakeHold | null> {
  const amount = workerStakeFor(q.price, c.params);
  if (stakeIsNoHold(amount)) return { amount, holdId: null };
  try {
    const { holdId } = await lockWorkerStake(c, q.bidder, amount);
    return { amount, holdId };
  } catch (error) {
    if (!isInsufficientFunds(error)) throw error;
    return null;
  }
}

/** Shrinks the escrow from the budget cap to the winning price: one batch, void then hold again. */
async function refundAboveWinningPrice(c: Contract, price: bigint): Promise<bigint> {
  const { refund, escrow } = auctionMatchRefund(c.escrowedFunds, price);
  if (refund === 0n) return 0n;
  const { opIds } = await scheduled.ledger.settle({
    contractId: c.contractId,
    step: 'match-refund',
    postings: [
      { type: 'void', holdId: c.holdId('escrow') },
      { type: 'hold', owner: c.terms.client, kind: 'escrow', amount: toWire(escrow) },
    ],
  });
  c.escrowShrunk({ amount: escrow, holdId: opIds[1]! });
  return refund;
}

async function matchQuote(c: Contract, q: AuctionQuote, stake: StakeHold, via: MatchedVia, actor: Actor) {
  const refund = await refundAboveWinningPrice(c, q.price);
  c.matched(q.bidder, stake, { quote: q, bidderPool: remainingBidders(c.quotes, q.bidder) });
  c.record(
    contractMatchedEvent(c.eventContext(actor), {
      worker: q.bidder,
      via,
      quoteId: q.quoteId,
      price: q.price,
      workerStake: stake.amount,
      refundedToClient: refund,
    }),
  );
}

/**
 * Closes bidding (the caller holds the match lock): matches the first quote whose stake locks, or
 * decides `cancelled-unmatched` when none does. An owner pick whose stake fails is refused instead,
 * and bidding opens again.
 */
async function closeBidding(c: Contract, pick: Pick, actor: Actor): Promise<void> {
  c.biddingClosing(true);
  try {
    const candidates =
      pick.via === 'owner-pick' ? c.quotes.filter((q) => q.quoteId === pick.quoteId) : matchOrder(c.quotes);
    for (const q of candidates) {
      const stake = await tryLockStake(c, q);
      if (stake !== null) return await matchQuote(c, q, stake, pick.via, actor);
    }
    if (pick.via === 'owner-pick') {
      const picked = candidates[0]!;
      reject(
        rejection(
          FailureType.InsufficientFunds,
          'insufficient_funds',
          `the picked bidder ${picked.bidder} cannot fund the Worker Stake of ${workerStakeFor(picked.price, c.params)}: bidding stays open`,
        ),
      );
    }
    c.decide({ kind: 'cancel', reason: 'unmatched', actor });
  } finally {
    if (c.status === 'created' && c.decision === null) c.biddingClosing(false);
  }
}

/** The Match Deadline of an auction: the best quote wins (an award already matching finishes first). */
export async function closeBiddingAtDeadline(c: Contract): Promise<void> {
  await c.matchLock.run(async () => {
    if (c.status === 'created' && c.decision === null) await closeBidding(c, { via: 'best-quote' }, 'system');
  });
}

/** The Client's award: its pick, or the best quote now. Answers once matched, or once cancelled unmatched. */
export async function awardContract(c: Contract, input: AwardInput): Promise<void> {
  const client = callerOf(input)!;
  await c.matchLock.run(async () => {
    const broken = validateAward(c, input);
    if (broken !== null) reject(broken);
    const pick: Pick =
      input.quoteId === undefined ? { via: 'best-quote' } : { via: 'owner-pick', quoteId: input.quoteId };
    await closeBidding(c, pick, client);
  });
  if (c.status !== 'matched') await condition(() => c.terminal);
}
