// The Backup Agent panel's activities as the workflow calls them (activities/panel-activities.ts).

export type SeatResult =
  | { seated: true; replayed: boolean }
  /** Members whose free eligibility stake no longer covers the bond: nothing was held. */
  | { seated: false; short: string[] };

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
  }): Promise<SeatResult>;
  /** Records the seated panel in the registry (the agents' open panels, for their views). */
  openPanel(input: { contractId: string; members: string[] }): Promise<void>;
  /** Stores the tally's vote rows and frees the panel's seats (after the resolution batch). */
  closePanel(input: { contractId: string; rows: VoteRowWire[] }): Promise<void>;
  /** Frees the seats of a void round's panel (no vote rows: the round decided nothing). */
  closeSeats(input: { contractId: string; members: string[] }): Promise<void>;
}
