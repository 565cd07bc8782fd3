// The review phase's state (docs/protocol.md §7): the Client's dispute of a delivery, its claims and
// its Dispute Bond. Approve and change requests keep nothing here (a change request is the work
// phase's: it moves its deadlines). Changed only by its named mutators.
import type { Verdict } from '../../rules/verdicts';
import type { HeldFunds, Pulse } from '../phase';

export class ReviewPhase {
  /** The Dispute Bond once the Client disputes. */
  bond: HeldFunds | null = null;
  /** True while a dispute is locking its bond: approve, a second dispute and the review timeout wait. */
  disputing = false;
  claims: Verdict[] | null = null;

  constructor(private readonly pulse: Pulse) {}

  /** A dispute starts (true) or stops (false) locking its bond: approve and the review timeout wait meanwhile. */
  bondLocking(locking: boolean): void {
    this.disputing = locking;
  }

  /** The Client disputed (its bond locked, or none): `disputed` (the panel phase was asked for a panel). */
  disputed(bond: HeldFunds | null, claims: Verdict[] | null): void {
    if (bond !== null) this.bond = bond;
    this.claims = claims;
    this.pulse.transition('disputed');
  }
}
