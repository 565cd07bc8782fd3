// Which deadline matters next (the NextDeadline search attribute and the workflow's timer), and the
// rule that a deadline closes its window at the very instant it falls.
import type { ProtocolParams } from './params';
import type { ContractStatus } from './status';
import type { VerificationMode } from './contract-kinds';

export interface Deadlines {
  match: number;
  withdrawal: number;
  delivery: number;
  /** Null only in standard mode, where the Client does not review. */
  review: number | null;
}

/** What happens when it passes: match → bidding closes / unmatched; withdrawal → withdrawing closes;
 * delivery → the Worker is absent; review → approved; voting → tally; recruitment → draw again, or the
 * operator decides as trusted arbiter once the recruitment window is over; appeal → a panel's tally
 * nobody appealed is final. */
export type DeadlineKind =
  'match' | 'withdrawal' | 'delivery' | 'review' | 'voting' | 'recruitment' | 'appeal';

export interface NextDeadline {
  kind: DeadlineKind;
  at: number;
}

export interface DeadlineState {
  status: ContractStatus;
  verificationMode: VerificationMode;
  deadlines: Deadlines;
  /** drawnAt + baVotingWindow once a panel is drawn, else null. */
  votingEndsAt: number | null;
  /** While the contract waits for a full panel: when the draw is tried again (rules/recruitment). */
  recruitmentRetryAt: number | null;
  /** While a panel's tally may still be appealed: the end of the appeal window. */
  appealEndsAt?: number | null;
}

/** An action due "before" a deadline is allowed strictly before it. */
export function isBeforeDeadline(now: number, deadline: number): boolean {
  return now < deadline;
}

export function votingWindowEnd(drawnAt: number, params: Pick<ProtocolParams, 'baVotingWindow'>): number {
  return drawnAt + params.baVotingWindow;
}

/** Null when no deadline is pending: a terminal or resolved contract, or a panel not yet drawn. */
export function nextDeadline(state: DeadlineState, now: number): NextDeadline | null {
  const { deadlines } = state;
  const voting = (): NextDeadline | null =>
    state.votingEndsAt !== null
      ? { kind: 'voting', at: state.votingEndsAt }
      : state.recruitmentRetryAt !== null
        ? { kind: 'recruitment', at: state.recruitmentRetryAt }
        : null;
  switch (state.status) {
    case 'created':
      return { kind: 'match', at: deadlines.match };
    case 'matched':
      return isBeforeDeadline(now, deadlines.withdrawal)
        ? { kind: 'withdrawal', at: deadlines.withdrawal }
        : { kind: 'delivery', at: deadlines.delivery };
    case 'under-review':
      if (state.verificationMode === 'standard') return voting();
      if (deadlines.review === null)
        throw new RangeError('a privacy-preserving contract has a review deadline');
      return { kind: 'review', at: deadlines.review };
    case 'disputed':
      return voting();
    case 'resolved':
      return state.appealEndsAt == null ? null : { kind: 'appeal', at: state.appealEndsAt };
    default:
      return null;
  }
}
