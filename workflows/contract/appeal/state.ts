// The appeal phase's state (docs/protocol.md §8): after a panel's tally, the appeal window, who
// appealed or waived (rules/appeal) and the first outcome, and the Appeal Bond. Changed only by its
// named mutators.
import type { AppealParty, AppealState } from '../../rules/appeal';
import type { Verdict } from '../../rules/verdicts';
import type { HeldFunds, Pulse } from '../phase';

export class AppealPhase {
  /** After a panel's tally: the appeal window and who appealed or waived, and the first outcome. */
  window: (AppealState & { firstOutcome: Verdict[] }) | null = null;
  /** The Appeal Bond, once a party appealed (no hold when it rounds to zero). */
  bond: (HeldFunds & { party: AppealParty }) | null = null;
  /** True while an appeal is locking its bond: the appeal deadline waits for it. */
  locking = false;

  constructor(private readonly pulse: Pulse) {}

  /** The first panel's tally: `resolved` through the appeal window that opens. */
  opened(deadline: number, firstOutcome: Verdict[]): void {
    this.window = { deadline, appealedBy: null, waivedBy: [], firstOutcome };
    this.pulse.transition('resolved');
  }

  /** An appeal starts (true) or stops (false) locking its bond. */
  bondLocking(locking: boolean): void {
    this.locking = locking;
  }

  /** A party appealed (its bond held, or none): `disputed` (the panel phase keeps the first panel). */
  appealed(party: AppealParty, bond: HeldFunds | null): void {
    if (this.window === null) throw new RangeError('no tally to appeal');
    this.window = { ...this.window, appealedBy: party };
    if (bond !== null) this.bond = { ...bond, party };
    this.pulse.transition('disputed');
  }

  /** A party waived its appeal; wakes and publishes. */
  waived(party: AppealParty): void {
    if (this.window === null) throw new RangeError('no tally to waive an appeal of');
    this.window = { ...this.window, waivedBy: [...this.window.waivedBy, party] };
    this.pulse.wake();
    this.pulse.publish();
  }
}
