// The panel phase's state (docs/protocol.md §8): the Backup Agent panel due, drawn and voting, the
// wait for a full panel (rules/recruitment), void rounds, the tallied vote rows, the first panel once
// an appeal draws a second, and the fee each round brings. Changed only by its named mutators.
import type { VoteRowView } from '../../definitions';
import type { Address } from '../../rules/address';
import type { Recruitment } from '../../rules/recruitment';
import type { Verdict } from '../../rules/verdicts';
import type { HeldFee, Pulse } from '../phase';

/** The drawn Backup Agent panel and its voting window (docs/protocol.md §8). */
export interface Panel {
  members: Address[];
  drawnAt: number;
  votingEndsAt: number;
  /** Void rounds before this panel was drawn: numbers its seats' holds (rules/seats seatHoldId). */
  voidRounds: number;
}

/** A BA's accepted combined call: its verdicts, staking its seat's hold. Sealed until the tally. */
export interface Ballot {
  voter: Address;
  verdicts: Verdict[];
}

export type FeeRound = 'panel' | 'appeal';

export class PanelPhase {
  /** Set when a panel must be drawn (a standard delivery, a dispute, an appeal); the main loop draws it. */
  due = false;
  /** When the panel now due was asked for: the recruitment window runs from it. */
  askedAt: number | null = null;
  /** The panel drawn and voting now (after an appeal: the appeal panel). */
  current: Panel | null = null;
  /** Once no full panel could be seated: the retry timer, then the trusted arbiter (rules/recruitment). Kept after a later draw seats one. */
  recruitment: Recruitment | null = null;
  ballots: Ballot[] = [];
  /** The first panel and its ballots once an appeal is drawn (`current` and `ballots` then hold the appeal's). */
  first: { members: Address[]; ballots: Ballot[]; voidRounds: number } | null = null;
  /** Backup Agents silent in a void round: never drawn again for this contract. */
  silent: Address[] = [];
  /** Void rounds so far (silence decides nothing): numbers the seats of every later panel. */
  voidRounds = 0;
  /** The vote rows, once tallied (sealed until then). */
  rows: VoteRowView[] | null = null;
  /** The panel fee of each round once held: the first panel's (its redraws share it) and the appeal's. */
  fees: { panel: HeldFee | null; appeal: HeldFee | null } = { panel: null, appeal: null };

  constructor(private readonly pulse: Pulse) {}

  /**
   * The next milestone's panel phase (milestone-loop.ts): the silent stay excluded, the seats numbered on
   * from the previous milestone's (a seat's hold id never repeats), a standard contract's fee held again.
   */
  continues(previous: { silent: readonly Address[]; voidRounds: number }, fee: HeldFee | null): void {
    this.silent = [...previous.silent];
    this.voidRounds = previous.voidRounds + 1;
    this.fees = { panel: fee, appeal: null };
  }

  /** A panel is asked for (a standard delivery, a dispute): the main loop draws it. */
  asked(at: number): void {
    this.due = true;
    this.askedAt = at;
  }

  /** A panel fee is held with the escrow or a party's bond. */
  feeHeld(round: FeeRound, fee: HeldFee): void {
    this.fees = { ...this.fees, [round]: fee };
  }

  /** The panel is drawn and seated; wakes and publishes. */
  drawn(panel: Panel): void {
    this.current = panel;
    this.due = false;
    this.pulse.wake();
    this.pulse.publish();
  }

  /** A BA's accepted ballot (its seat holds the bond); wakes the loop. */
  voted(ballot: Ballot): void {
    this.ballots.push(ballot);
    this.pulse.wake();
  }

  /** No full panel could be seated: wait (retry timer) or, once the window is over, the arbiter; wakes and publishes. */
  recruiting(recruitment: Recruitment): void {
    this.recruitment = recruitment;
    this.pulse.wake();
    this.pulse.publish();
  }

  /** Seats may have been freed: a panel still pending is drawn again now; wakes the loop. */
  retryNow(): void {
    this.recruitment = { ...this.recruitment!, retryAt: Date.now() };
    this.pulse.wake();
  }

  /**
   * The panel's round was void (fewer than a majority voted): its seats are posted, its silent members
   * never drawn again, a new panel due (or the arbiter, once the recruitment window is over); the fee
   * stays held for the next panel. Wakes and publishes.
   */
  roundVoided(silent: readonly Address[], recruitment: Recruitment): void {
    this.silent.push(...silent);
    this.voidRounds++;
    this.current = null;
    this.ballots = [];
    this.recruitment = recruitment;
    this.due = true;
    this.pulse.wake();
    this.pulse.publish();
  }

  /** An appeal: the first panel is kept, an appeal panel is due, asked for `at`. */
  appealRound(at: number): void {
    if (this.current === null) throw new RangeError('no panel to appeal');
    this.first = {
      members: this.current.members,
      ballots: this.ballots,
      voidRounds: this.current.voidRounds,
    };
    this.current = null;
    this.ballots = [];
    this.recruitment = null;
    this.asked(at);
  }

  /** The tallied vote rows (at the resolution), or back to none (a failed step's restore). */
  tallied(rows: VoteRowView[] | null): void {
    this.rows = rows;
  }

  /** Every Backup Agent seated on this contract: the first panel, then the appeal panel. */
  get seated(): Address[] {
    return [...(this.first?.members ?? []), ...(this.current?.members ?? [])];
  }
}
