// What a contract holds in the ledger, as the settlement rules read it (rules/settlement): the amounts of its
// escrow, Worker Stake and Dispute Bond, and the ledger id of each hold.
import type { ContractHold } from '../rules/holds';
import type { ContractHolds } from '../rules/settlement';
import type { Contract } from './state';

export function heldAmounts(c: Contract): ContractHolds {
  if (c.escrow.state !== 'held') throw new RangeError('no escrow is held');
  return {
    escrow: c.escrow.amount,
    workerStake: c.match.stake?.amount ?? null,
    disputeBond: c.review.bond?.amount ?? null,
  };
}

export function holdIdOf(c: Contract, kind: ContractHold): string {
  const held = {
    escrow: c.escrow.state === 'held' ? c.escrow : null,
    workerStake: c.match.stake,
    disputeBond: c.review.bond,
  }[kind];
  if (held === null) throw new RangeError(`no ${kind} hold`);
  return held.holdId;
}
