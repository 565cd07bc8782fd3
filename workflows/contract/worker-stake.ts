// The Worker Stake at the match, written once for an accept (messages.ts) and an auction's close of
// bidding (auction-match.ts): whether it is a hold at all, and its ledger lock. Each caller keeps its
// own answer to a Worker that cannot fund it (an accept is refused, an auction tries the next quote)
// and its own awaits (docs/workflow.md "State protocol"); `Contract.matched` then records the match.
import type { Address } from '../rules/address';
import { toWire } from '../rules/money';
import { messageLock } from './activity-proxies';
import type { Contract } from './state';

/** True when `amount` needs no lock: it rounds to zero (docs/protocol.md "A stake that rounds to zero"). */
export function stakeIsNoHold(amount: bigint): boolean {
  return amount === 0n;
}

/**
 * Locks `worker`'s stake (`<contractId>:stake:<address>`); fails with InsufficientFunds when it cannot
 * fund it. Only a direct award's accept cannot race (only the named Worker passes its validator).
 */
export function lockWorkerStake(c: Contract, worker: Address, amount: bigint): Promise<{ holdId: string }> {
  const raceFree = c.terms.awardMethod === 'direct' && c.terms.contractType !== 'auction';
  return messageLock(raceFree).lockStake({ contractId: c.contractId, worker, amount: toWire(amount) });
}
