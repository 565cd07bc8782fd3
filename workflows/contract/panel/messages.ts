// The panel phase's message (docs/protocol.md §8): a drawn Backup Agent's vote.
import { voteSignal, voteUpdate, type VoteInput } from '../../definitions';
import { callerOf } from '../checks';
import { recheck, type MessageSpec } from '../message-spec';
import { decideTally, everyoneVoted } from './tally';
import { validateVote } from './validators';

export const vote: MessageSpec<VoteInput> = {
  message: 'vote',
  signal: voteSignal,
  update: voteUpdate,
  validate: validateVote,
  // The vote stakes the bond its seat already holds (so it never fails for funds); nothing about the
  // ballot is published until the tally.
  run: async (c, input) => {
    recheck(c, input, validateVote);
    c.panel.voted({ voter: callerOf(input)!, verdicts: [...input.votes] });
    if (everyoneVoted(c)) decideTally(c);
  },
};
