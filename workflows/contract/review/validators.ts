// The review phase's checks (docs/protocol.md §7): the Client's three answers to a delivery in its
// review window — approve, dispute, request changes.
import { FailureType, type DisputeInput, type RequestChangesInput } from '../../definitions';
import { revisionCriteria, revisionNoteProblem, revisionsExhausted } from '../../rules/revisions';
import {
  before,
  callerIs,
  callerIsAddress,
  exists,
  firstBroken,
  statusIs,
  verdictList,
  type Check,
} from '../checks';
import { rejection, type Rejection } from '../rejection';
import type { Contract } from '../state';

const notDisputing =
  (c: Contract): Check =>
  () =>
    c.review.disputing
      ? rejection(FailureType.Conflict, 'wrong_state', 'the Client is disputing the delivery')
      : null;

const privacyPreserving =
  (c: Contract, message: string): Check =>
  () =>
    c.terms.verificationMode === 'privacy-preserving'
      ? null
      : rejection(FailureType.Conflict, 'standard_mode', message);

/** The Client's review window (privacy-preserving, under review, before the Review Deadline): approve or dispute. */
const clientReview = (c: Contract, input: unknown, standardModeMessage: string): Check[] => [
  callerIsAddress(input),
  exists(c),
  callerIs(c, input, 'client'),
  privacyPreserving(c, standardModeMessage),
  statusIs(c, 'under-review'),
  notDisputing(c),
  before(c.work.deadlines.review, 'review'),
];

export function validateApprove(c: Contract, input: unknown): Rejection | null {
  return firstBroken(...clientReview(c, input, 'in standard mode the panel decides, not the Client'));
}

export function validateDispute(c: Contract, input: unknown): Rejection | null {
  const claims = (input as Partial<DisputeInput> | null | undefined)?.claims;
  return firstBroken(...clientReview(c, input, 'in standard mode the panel decides; no dispute'), () =>
    claims === undefined ? null : verdictList(claims, c.terms.acceptanceCriteria.length, 'claims'),
  );
}

/**
 * The Client's change request (docs/protocol.md §7): in its review window, at most `maxRevisions` times,
 * naming the criteria it finds unmet, with an optional note for the Worker.
 */
export function validateRequestChanges(c: Contract, input: unknown): Rejection | null {
  const { criteria, note } = (input ?? {}) as Partial<RequestChangesInput>;
  const bad = (field: string, message: string) =>
    rejection(FailureType.BadInput, 'invalid_input', message, field);
  return firstBroken(
    ...clientReview(c, input, 'in standard mode the panel decides; no change request'),
    () => {
      const exhausted = revisionsExhausted(c.work.revisions.length, c.params);
      return exhausted === null ? null : rejection(FailureType.Conflict, exhausted.code, exhausted.message);
    },
    () => {
      const checked = revisionCriteria(criteria, c.terms.acceptanceCriteria.length);
      return checked.ok ? null : bad('criteria', checked.message);
    },
    () => {
      const problem = revisionNoteProblem(note);
      return problem === null ? null : bad('note', problem);
    },
  );
}
