// Whether a BA's combined vote call is accepted (docs/protocol.md §8): once, by a panel member, within the window.
import type { Address } from './address';

export type BallotRejectionCode = 'not_on_panel' | 'already_voted' | 'window_closed' | 'wrong_length';

export interface BallotRejection {
  code: BallotRejectionCode;
  message: string;
}

export interface BallotCheck {
  panel: readonly Address[];
  alreadyVoted: readonly Address[];
  voter: Address;
  verdictCount: number;
  criteriaCount: number;
  now: number;
  /** drawnAt + baVotingWindow; a call at this instant or later is too late. */
  windowEndsAt: number;
}

/** Null when the ballot is accepted, otherwise the reason it is rejected. */
export function checkBallot(b: BallotCheck): BallotRejection | null {
  if (!b.panel.includes(b.voter))
    return { code: 'not_on_panel', message: `${b.voter} is not on this contract's panel` };
  if (b.alreadyVoted.includes(b.voter))
    return { code: 'already_voted', message: `${b.voter} has already voted` };
  if (b.now >= b.windowEndsAt) return { code: 'window_closed', message: 'the voting window has closed' };
  if (b.verdictCount !== b.criteriaCount) {
    return {
      code: 'wrong_length',
      message: `votes must hold one verdict per criterion (${b.criteriaCount}), got ${b.verdictCount}`,
    };
  }
  return null;
}
