// An auction quote's bid bond (docs/auction.md "Bid bonds"): the bidder's Worker Stake for the quoted
// price, held from the moment the quote is accepted, so a close of bidding never fails for funds.
// A replacement moves the bond in one ledger batch (the old hold voided, the new one held), so a
// bidder that cannot fund the new bond keeps its old quote and bond. Scheduled, like every hold a
// racing message takes (activity-proxies.ts), and under the match lock (match/messages.ts), so no close of
// bidding reads the quotes while a bond moves.
import type { Address } from '../../rules/address';
import { FailureType } from '../../definitions';
import { toWire } from '../../rules/money';
import { scheduled } from '../activity-proxies';
import { isInsufficientFunds, mandateRefusal, reject, rejection } from '../rejection';
import { mandateOf } from '../delegation';
import type { Delegation } from '../../definitions';
import type { HeldFunds } from '../phase';
import type { Contract } from '../state';
import type { AuctionQuote } from './state';

/**
 * Holds `amount` as `bidder`'s bid bond, releasing its earlier quote's and the bond of the quote it
 * displaces at a full cap, in the same batch; 402 when it cannot fund it (then nothing moves).
 */
export async function holdBidBond(
  c: Contract,
  bidder: Address,
  amount: bigint,
  displaced: AuctionQuote | null,
  delegation: Delegation | null,
): Promise<HeldFunds> {
  const released = [c.match.quotes.find((q) => q.bidder === bidder)?.bond, displaced?.bond].filter(
    (b): b is HeldFunds => b !== undefined,
  );
  const bond = { type: 'hold' as const, owner: bidder, kind: 'stake' as const, amount: toWire(amount) };
  const postings = [
    ...released.map((b) => ({ type: 'void' as const, holdId: b.holdId })),
    { ...bond, ...mandateOf(delegation) },
  ];
  try {
    const { opIds } = await scheduled.ledger.settle({
      contractId: c.contractId,
      step: `bid-bond-${c.match.nextBondStep()}`,
      postings,
    });
    return { amount, holdId: opIds[opIds.length - 1]! };
  } catch (error) {
    const refused = mandateRefusal(error);
    if (refused !== null) return reject(refused);
    if (!isInsufficientFunds(error)) throw error;
    return reject(
      rejection(
        FailureType.InsufficientFunds,
        'insufficient_funds',
        `the bid bond of ${amount} for this price could not be held: the bidder cannot fund it`,
      ),
    );
  }
}

/** At the match: every bond but the winner's is released (the winner's becomes its Worker Stake). */
export function releaseOtherBonds(c: Contract, winner: Address) {
  return c.match.quotes
    .filter((q) => q.bidder !== winner)
    .map((q) => ({ type: 'void' as const, holdId: q.bond.holdId }));
}
