// The Worker Stake an accept locks at the match (match/messages.ts); an auction's Worker Stake is its
// winner's bid bond, held since the quote (bid-bond.ts). The match phase's `matched` then records the match.
import type { Delegation } from '../../definitions';
import type { Address } from '../../rules/address';
import { mandateOf } from '../delegation';
import { toWire } from '../../rules/money';
import { messageLock } from '../activity-proxies';
import type { Contract } from '../state';

/**
 * Locks `worker`'s stake (`<contractId>:stake:<address>`); fails with InsufficientFunds when it cannot
 * fund it. Only a direct award's accept cannot race (only the named Worker passes its validator).
 */
export function lockWorkerStake(
  c: Contract,
  worker: Address,
  amount: bigint,
  delegation: Delegation | null,
): Promise<{ holdId: string }> {
  const raceFree = c.terms.awardMethod === 'direct';
  return messageLock(raceFree).lockStake({
    contractId: c.contractId,
    worker,
    amount: toWire(amount),
    ...mandateOf(delegation),
  });
}
