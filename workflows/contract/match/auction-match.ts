// Closing an auction's bidding: at the Match Deadline or when the Client awards. The Client's pick,
// or the best quote (rules/auction matchOrder: lowest price, then higher confidence, then earliest),
// wins on the bid bond it holds since it was quoted (bid-bond.ts), which becomes its Worker Stake: a
// match never fails for funds, so nothing a bidder does with its money can refuse the Client's award.
// No quote → `cancelled-unmatched`. At the match the escrow shrinks to the winning price and every
// other bond is released, in one ledger batch, and the other bidders become the contract's BA pool
// (drawn from first, panel/draw.ts).
import { condition } from '@temporalio/workflow';
import type { AwardInput } from '../../definitions';
import { matchOrder, remainingBidders } from '../../rules/auction';
import { contractMatchedEvent } from '../../rules/event-constructors';
import { type Actor, type MatchedVia } from '../../rules/events';
import { auctionMatchRefund } from '../../rules/holds';
import { toWire } from '../../rules/money';
import { scheduled } from '../activity-proxies';
import { validateAward } from './bidding';
import { releaseOtherBonds } from './bid-bond';
import { reject } from '../rejection';
import type { Contract } from '../state';
import { callerOf } from '../checks';
import type { AuctionQuote } from './state';
import { holdIdOf } from '../holds';

type Pick = { via: 'best-quote' } | { via: 'owner-pick'; quoteId: string };

/**
 * One ledger batch at the match: the escrow shrinks from the budget cap to the winning price (the
 * budget-cap hold voided, the price held again) and every other bidder's bond is released. The
 * winner's bond stays held: it is its Worker Stake.
 */
async function settleMatch(c: Contract, winner: AuctionQuote): Promise<bigint> {
  const { refund, escrow } = auctionMatchRefund(c.escrowedFunds, winner.price);
  const shrink =
    refund === 0n
      ? []
      : [
          { type: 'void' as const, holdId: holdIdOf(c, 'escrow') },
          { type: 'hold' as const, owner: c.terms.client, kind: 'escrow' as const, amount: toWire(escrow) },
        ];
  const postings = [...shrink, ...releaseOtherBonds(c, winner.bidder)];
  if (postings.length === 0) return 0n;
  const { opIds } = await scheduled.ledger.settle({ contractId: c.contractId, step: 'match', postings });
  if (refund > 0n) c.escrowShrunk({ amount: escrow, holdId: opIds[1]! });
  return refund;
}

async function matchQuote(c: Contract, q: AuctionQuote, via: MatchedVia, actor: Actor) {
  const refund = await settleMatch(c, q);
  c.match.matched(q.bidder, q.bond, { quote: q, bidderPool: remainingBidders(c.match.quotes, q.bidder) });
  c.record(
    contractMatchedEvent(c.eventContext(actor), {
      worker: q.bidder,
      via,
      quoteId: q.quoteId,
      price: q.price,
      workerStake: q.bond.amount,
      refundedToClient: refund,
    }),
  );
}

/**
 * Closes bidding (the caller holds the match lock): the picked or the best quote wins on the bond it
 * holds, so a match never fails for funds; with no quote the contract is `cancelled-unmatched`.
 */
async function closeBidding(c: Contract, pick: Pick, actor: Actor): Promise<void> {
  c.match.biddingClosing(true);
  try {
    const winner =
      pick.via === 'owner-pick'
        ? c.match.quotes.find((q) => q.quoteId === pick.quoteId)
        : matchOrder(c.match.quotes)[0];
    if (winner !== undefined) return await matchQuote(c, winner, pick.via, actor);
    c.decide({ kind: 'cancel', reason: 'unmatched', actor });
  } finally {
    if (c.status === 'created' && c.decision === null) c.match.biddingClosing(false);
  }
}

/** The Match Deadline of an auction: the best quote wins (an award already matching finishes first). */
export async function closeBiddingAtDeadline(c: Contract): Promise<void> {
  await c.match.lock.run(async () => {
    if (c.status === 'created' && c.decision === null) await closeBidding(c, { via: 'best-quote' }, 'system');
  });
}

/** The Client's award: its pick, or the best quote now. Answers once matched, or once cancelled unmatched. */
export async function awardContract(c: Contract, input: AwardInput): Promise<void> {
  const client = callerOf(input)!;
  await c.match.lock.run(async () => {
    const broken = validateAward(c, input);
    if (broken !== null) reject(broken);
    const pick: Pick =
      input.quoteId === undefined ? { via: 'best-quote' } : { via: 'owner-pick', quoteId: input.quoteId };
    await closeBidding(c, pick, client);
  });
  if (c.status !== 'matched') await condition(() => c.terminal);
}
