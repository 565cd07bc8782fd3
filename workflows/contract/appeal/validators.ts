// The appeal phase's checks (docs/protocol.md §8): who may appeal or waive a panel's tally, and when.
import { FailureType, type AppealInput } from '../../definitions';
import { appealRefusal, type AppealParty } from '../../rules/appeal';
import { callerIsAddress, callerOf, exists, firstBroken } from '../checks';
import { rejection, type Rejection } from '../rejection';
import type { Contract } from '../state';

const APPEAL_REJECTIONS = {
  'not-a-party': [FailureType.Forbidden, 'not_a_party'],
  'window-closed': [FailureType.Conflict, 'late'],
  'already-decided': [FailureType.Conflict, 'already_decided'],
} as const;

/** The appealing party's role, or null for anyone else. */
export function appealPartyOf(c: Contract, input: unknown): AppealParty | null {
  const caller = callerOf(input);
  if (caller === c.terms.client) return 'client';
  return caller !== null && caller === c.match.worker ? 'worker' : null;
}

/** The Client or the Worker, once, within the appeal window after a panel's tally (rules/appeal). */
export function validateAppeal(c: Contract, input: unknown): Rejection | null {
  const waive = (input as Partial<AppealInput> | null | undefined)?.waive;
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    () =>
      waive === undefined || typeof waive === 'boolean'
        ? null
        : rejection(FailureType.BadInput, 'invalid_input', 'waive must be a boolean', 'waive'),
    () => {
      const party = appealPartyOf(c, input);
      if (party === null)
        return rejection(FailureType.Forbidden, 'not_a_party', 'only the Client or the Worker may appeal');
      const window = c.appeal.window;
      if (window === null || c.status !== 'resolved' || c.decision !== null || c.appeal.locking) {
        return rejection(
          FailureType.Conflict,
          'wrong_state',
          `no panel tally of this ${c.status} contract may be appealed`,
        );
      }
      const broken = appealRefusal(window, party, Date.now());
      if (broken === null) return null;
      const [type, code] = APPEAL_REJECTIONS[broken.code];
      return rejection(type, code, broken.message);
    },
  );
}
