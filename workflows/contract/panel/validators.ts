// The panel phase's check (docs/protocol.md §8): a drawn Backup Agent's vote.
import { FailureType, type VoteInput } from '../../definitions';
import { checkBallot } from '../../rules/ballot';
import { callerIsAddress, callerOf, exists, firstBroken, verdictList } from '../checks';
import { rejection, type Rejection } from '../rejection';
import type { Contract } from '../state';

const BALLOT_REJECTIONS = {
  not_on_panel: [FailureType.Forbidden, 'not_on_panel'],
  already_voted: [FailureType.Conflict, 'already_voted'],
  window_closed: [FailureType.Conflict, 'late'],
  wrong_length: [FailureType.BadInput, 'invalid_input'],
} as const;

/** A drawn BA's one call (rules/ballot): on the panel, once, within the window. */
export function validateVote(c: Contract, input: unknown): Rejection | null {
  const votes = (input as Partial<VoteInput> | null | undefined)?.votes;
  const criteria = c.terms.acceptanceCriteria.length;
  const panel = c.panel.current;
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    () =>
      panel === null
        ? rejection(FailureType.Conflict, 'no_panel', 'no Backup Agent panel is voting on this contract')
        : null,
    () => {
      const broken = checkBallot({
        panel: panel!.members,
        alreadyVoted: c.panel.ballots.map((b) => b.voter),
        voter: callerOf(input)!,
        verdictCount: Array.isArray(votes) ? votes.length : criteria,
        criteriaCount: criteria,
        now: Date.now(),
        windowEndsAt: panel!.votingEndsAt,
      });
      if (broken === null) return null;
      const [type, code] = BALLOT_REJECTIONS[broken.code];
      return rejection(type, code, broken.message, code === 'invalid_input' ? 'votes' : undefined);
    },
    () =>
      c.decision === null
        ? null
        : rejection(FailureType.Conflict, 'wrong_state', `the contract is ${c.status} and closing`),
    () => verdictList(votes, criteria, 'votes'),
  );
}
