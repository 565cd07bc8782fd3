// What a contract's run has spent of its Temporal budget (rules/budget): counted by the message
// handlers, read by the admission checks (budget.ts). Kept apart from the contract's business state.
import type { Address } from '../rules/address';

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

export class BudgetSpent {
  /** Updates accepted in this run (Temporal allows 2,000 per run). */
  updates = 0;
  /** Accepted quotes per bidder, replacements included (the total is the contract's quoteSequence). */
  readonly quotesBy = new Map<string, number>();
  /** Messages refused for lack of funds after they were accepted, per caller. */
  readonly failedLocksBy = new Map<string, number>();
  /** The same, by non-parties only, in total. */
  failedLocks = 0;
  /** Accepts still waiting for the match lock or their stake lock: one per agent at a time. */
  readonly acceptsPending: string[] = [];
  /** Refused messages written to the event log, per caller and in total. */
  readonly loggedRejectionsBy = new Map<string, number>();
  loggedRejections = 0;

  quotesOf(bidder: Address): number {
    return this.quotesBy.get(bidder) ?? 0;
  }

  failedLocksOf(caller: Address): number {
    return this.failedLocksBy.get(caller) ?? 0;
  }

  quoted(bidder: Address): void {
    bump(this.quotesBy, bidder);
  }

  lockFailed(caller: Address, party: boolean): void {
    bump(this.failedLocksBy, caller);
    if (!party) this.failedLocks++;
  }

  /** True when a refusal by `caller` may still be written to the event log (and counts it). */
  logRejection(caller: string, perAgent: number, total: number): boolean {
    if (this.loggedRejections >= total || (this.loggedRejectionsBy.get(caller) ?? 0) >= perAgent)
      return false;
    bump(this.loggedRejectionsBy, caller);
    this.loggedRejections++;
    return true;
  }
}
