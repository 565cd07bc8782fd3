// The Backup Agent panel's activities as the workflow calls them (activities/panel-activities.ts).

export type SeatResult =
  | { seated: true; replayed: boolean }
  /**
   * Nothing was held: `short` names the members whose free eligibility stake no longer covers the bond;
   * `ahead` a contract that started waiting first and can be seated now, which goes first.
   */
  | { seated: false; short: string[]; ahead?: string };

/** A contract's place on the waitlist for seats (docs/protocol.md §8 "Waiting for seats"). */
export interface WaitlistEntryWire {
  contractId: string;
  /** When it started waiting for this panel (ms, workflow time). */
  since: number;
  panelSize: number;
  /** Never drawn for it: the Client, the Worker, a first panel, silent members. */
  exclude: string[];
}

/** What makes an agent drawable (rules/seats isDrawable), as decimal strings. */
export interface SeatTerms {
  bond: string;
  minStake: string;
}

/** One vote row of the tally on the wire: reward as a decimal string of OCT minor units. */
export interface VoteRowWire {
  contractId: string;
  backupAgent: string;
  criterionIndex: number;
  vote: 'met' | 'not met' | 'unclear' | 'no vote';
  majorityOutcome: 'met' | 'not met' | 'unclear';
  bondOutcome: 'returned' | 'slashed' | 'partially slashed';
  reward: string;
}

export interface PanelActivities {
  /**
   * Holds each drawn member's seat (`bond` of its free eligibility stake, hold
   * `<contractId>:ba-bond:<address>`), all or none: `short` names the members whose free stake no
   * longer covers it (an unlock won the race), so the workflow draws again.
   */
  seatPanel(input: {
    contractId: string;
    members: string[];
    bond: string;
    /** Void rounds before this panel: numbers its seats' holds (rules/seats seatHoldId). */
    voidRounds?: number;
    /** Its place in the waiting order: refused (`ahead`) while a contract waiting before it can be seated. */
    queue?: WaitlistEntryWire & { minStake: string };
  }): Promise<SeatResult>;
  /** Puts the contract on the waitlist for seats (its first `since` kept). */
  awaitSeats(input: WaitlistEntryWire): Promise<void>;
  /** Takes the contract off the waitlist (it no longer waits: seated by other means, or decided). */
  leaveWaitlist(input: { contractId: string }): Promise<void>;
  /** The first waiting contract the registry can seat now, in waiting order (rules/seats firstSeatable), or null. */
  nextSeatable(input: SeatTerms): Promise<string | null>;
  /** Records the seated panel in the registry (the agents' open panels, for their views). */
  openPanel(input: { contractId: string; members: string[] }): Promise<void>;
  /**
   * Stores the tally's vote rows under the milestone whose panel it was (null: a whole contract's) and
   * frees the panel's seats (after the resolution batch).
   */
  closePanel(input: {
    contractId: string;
    milestoneIndex: number | null;
    rows: VoteRowWire[];
  }): Promise<void>;
  /** Frees the seats of a void round's panel (no vote rows: the round decided nothing). */
  closeSeats(input: { contractId: string; members: string[] }): Promise<void>;
}
