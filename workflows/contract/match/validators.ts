// The match phase's checks (docs/protocol.md §5): who may accept, decline or cancel a contract not yet
// matched. An auction's quote and award are checked in bidding.ts.
import { FailureType } from '../../definitions';
import { before, callerIs, callerIsAddress, callerOf, exists, firstBroken, statusIs } from '../checks';
import { rejection, type Rejection } from '../rejection';
import type { Contract } from '../state';

export function validateAccept(c: Contract, input: unknown): Rejection | null {
  const caller = callerOf(input);
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    () =>
      caller === c.terms.client
        ? rejection(
            FailureType.Forbidden,
            'client_cannot_accept',
            'the Client cannot accept its own contract',
          )
        : null,
    () =>
      c.terms.awardMethod === 'direct' && caller !== c.terms.worker
        ? rejection(FailureType.Forbidden, 'not_worker', 'only the named Worker may accept a direct award')
        : null,
    () =>
      c.terms.contractType === 'auction'
        ? rejection(FailureType.Conflict, 'auction', 'an auction is matched by quotes, not by accept')
        : null,
    () =>
      c.match.stake !== null
        ? rejection(FailureType.Conflict, 'already_matched', 'the contract is already matched')
        : null,
    statusIs(c, 'created'),
    before(c.terms.deadlines.match, 'match'),
  );
}

export function validateDecline(c: Contract, input: unknown): Rejection | null {
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    () =>
      c.terms.awardMethod === 'direct'
        ? null
        : rejection(FailureType.Conflict, 'not_direct_award', 'only a direct award can be declined'),
    callerIs(c, input, 'worker'),
    statusIs(c, 'created'),
    before(c.terms.deadlines.match, 'match'),
  );
}

export function validateCancel(c: Contract, input: unknown): Rejection | null {
  return firstBroken(callerIsAddress(input), exists(c), callerIs(c, input, 'client'), statusIs(c, 'created'));
}
