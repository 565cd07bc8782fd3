// A quote whose bidder cannot fund its bid bond is refused here, 402 before any Update exists, so a
// flood of unfunded quotes writes nothing to the auction's history (as api/contracts/stake-precheck.ts does for
// accepts). The bond a replacement needs is what it adds to the bidder's live bond: the ledger moves
// the old hold to the new quote in one batch. Only while bidding is open; the workflow decides the rest.
import { agentOwner } from '../../store/ledger';
import { existingContract } from './requests';
import { stakeAt } from './views';
import type { ContractContext } from './context';
import { insufficientFunds } from '../errors';

export async function requireBidBondFunds(
  ctx: ContractContext,
  contractId: string,
  bidder: string,
  price: bigint,
): Promise<void> {
  const view = await existingContract(ctx, contractId);
  if (view.status !== 'created' || view.contractType !== 'auction') return;
  const bond = stakeAt(view, price);
  const live = view.quotes.find((q) => q.bidder === bidder);
  const needed = bond - (live === undefined ? 0n : BigInt(live.bidBond));
  if (needed <= 0n) return;
  const available = (await ctx.ledger.balances(agentOwner(bidder))).USDC.available;
  if (available >= needed) return;
  throw insufficientFunds(
    `the caller has ${available} USDC available, the bid bond of ${bond} for this price needs ${needed} more`,
    { available: available.toString(), needed: needed.toString(), bidBond: bond.toString() },
  );
}
