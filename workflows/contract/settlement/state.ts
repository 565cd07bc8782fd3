// The settlement phase's state (docs/protocol.md §7a): the Criteria Met a decision settled on and the
// Payment it made. Changed only by its named mutators.
import type { Verdict } from '../../rules/verdicts';
import type { ContractStatus } from '../../rules/status';
import type { Pulse } from '../phase';

export class SettlementPhase {
  criteriaMet: Verdict[] | null = null;
  payment: bigint | null = null;

  constructor(private readonly pulse: Pulse) {}

  /** A panel's first tally: Criteria Met is known before any settlement (the appeal window opens). */
  decided(criteriaMet: Verdict[]): void {
    this.criteriaMet = criteriaMet;
  }

  /** A resolution starts: its Criteria Met; `resolved` (a tally already was: wakes the loop). */
  resolving(criteriaMet: Verdict[]): void {
    this.criteriaMet = criteriaMet;
    if (this.pulse.status() === 'resolved') this.pulse.wake();
    else this.pulse.transition('resolved');
  }

  /** The settlement is posted: the Payment, and the settled status. */
  settled(payment: bigint, status: ContractStatus): void {
    this.payment = payment;
    this.pulse.transition(status);
  }

  /** Back to what a failed step found (its ledger batch moved nothing). */
  restore(criteriaMet: Verdict[] | null, payment: bigint | null): void {
    this.criteriaMet = criteriaMet;
    this.payment = payment;
  }
}
