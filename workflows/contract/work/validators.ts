// The work phase's checks (docs/protocol.md §6): the Worker's withdrawal and delivery, and a delivery's fields.
import { FailureType, type DeliverInput } from '../../definitions';
import { CONFIDENCE_RULE, isConfidence } from '../../rules/confidence';
import { isSha256 } from '../../rules/sha256';
import { before, callerIs, callerIsAddress, exists, firstBroken, statusIs } from '../checks';
import { rejection, type Rejection } from '../rejection';
import type { Contract } from '../state';

export function validateWithdraw(c: Contract, input: unknown): Rejection | null {
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    callerIs(c, input, 'worker'),
    statusIs(c, 'matched'),
    before(c.work.deadlines.withdrawal, 'withdrawal'),
    () =>
      c.work.delivery === null
        ? null
        : rejection(
            FailureType.Conflict,
            'already_delivered',
            'the Worker has delivered: it redelivers, or its delivery stands',
          ),
  );
}

function deliveryFields(c: Contract, input: Partial<DeliverInput>): Rejection | null {
  const bad = (field: string, message: string) =>
    rejection(FailureType.BadInput, 'invalid_input', message, field);
  if (typeof input.uri !== 'string' || input.uri === '' || input.uri.length > 2048) {
    return bad('uri', 'uri must be a non-empty string of at most 2048 characters');
  }
  if (!isSha256(input.sha256)) {
    return bad('sha256', 'sha256 must be 64 hexadecimal characters');
  }
  if (!isSha256(input.contentHash)) {
    return bad('contentHash', 'contentHash must be 64 hexadecimal characters');
  }
  if (input.confidence !== undefined && !isConfidence(input.confidence)) {
    return bad('confidence', `confidence ${CONFIDENCE_RULE}`);
  }
  const criteria = c.terms.acceptanceCriteria.length;
  if (input.evidence !== undefined) {
    if (!Array.isArray(input.evidence)) return bad('evidence', 'evidence must be an array');
    const outside = input.evidence.find(
      (e) => !(Number.isInteger(e?.criterionIndex) && e.criterionIndex < criteria),
    );
    if (outside !== undefined) return bad('evidence', `evidence criterionIndex must be below ${criteria}`);
  }
  return null;
}

export function validateDeliver(c: Contract, input: unknown): Rejection | null {
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    callerIs(c, input, 'worker'),
    statusIs(c, 'matched'),
    before(c.work.deadlines.delivery, 'delivery'),
    () => deliveryFields(c, (input ?? {}) as Partial<DeliverInput>),
  );
}
