// The Worker Stake an accept of a fixed-price contract locks, remembered from the views the API
// reads, so the stake pre-check (api/contracts/stake-precheck.ts) needs no query of the workflow when the
// caller can pay it. It follows from the price and workerStakeBps, both fixed at creation, so an
// entry never goes stale. Per API process and bounded: the oldest entries go first; a forgotten
// contract is simply read again.
import type { ContractView } from '../../workflows/definitions';
import { stakeForPrice } from './views';

const DEFAULT_CAPACITY = 10_000;

export class FixedStakeMemo {
  private readonly stakes = new Map<string, bigint>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Remembers the stake of a created fixed-price contract from any view of it (auctions: nothing). */
  remember(view: ContractView): void {
    if (!view.created || view.contractType !== 'fixed' || this.stakes.has(view.contractId)) return;
    const stake = stakeForPrice(view);
    if (stake === null) return;
    if (this.stakes.size >= this.capacity) this.stakes.delete(this.stakes.keys().next().value!);
    this.stakes.set(view.contractId, stake);
  }

  /** The stake accepting would lock, if this contract is a fixed-price one seen before. */
  stakeOf(contractId: string): bigint | undefined {
    return this.stakes.get(contractId);
  }
}
