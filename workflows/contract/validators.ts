// The synchronous checks of each message (docs/protocol.md §5, §6, §7, §12): role, state, deadline, fields.
// Each returns the first broken rule, or null. They read the state and never change it, so they serve
// as Update validators, as the Signal path's checks, and as re-checks after waiting for a lock.
import {
  FailureType,
  type CallerInput,
  type DeliverInput,
  type DisputeInput,
  type AppealInput,
  type VoteInput,
  type RequestChangesInput,
} from '../definitions';
import { appealRefusal, type AppealParty } from '../rules/appeal';
import { checkBallot } from '../rules/ballot';
import { isAddress, type Address } from '../rules/address';
import { isBeforeDeadline } from '../rules/deadlines';
import { isSha256 } from '../rules/sha256';
import { revisionCriteria, revisionNoteProblem, revisionsExhausted } from '../rules/revisions';
import type { ContractStatus } from '../rules/status';
import { VERDICTS, type Verdict } from '../rules/verdicts';
import { rejection, type Rejection } from './rejection';
import type { Contract } from './state';
import { CONFIDENCE_RULE, isConfidence } from '../rules/confidence';

export type Check = () => Rejection | null;

export function firstBroken(...checks: Check[]): Rejection | null {
  for (const check of checks) {
    const broken = check();
    if (broken !== null) return broken;
  }
  return null;
}

/** The caller's address, lowercase; null when the message carries none. */
export function callerOf(input: unknown): Address | null {
  const caller = (input as Partial<CallerInput> | null | undefined)?.caller;
  return isAddress(caller) ? (caller.toLowerCase() as Address) : null;
}

export const callerIsAddress =
  (input: unknown): Check =>
  () =>
    callerOf(input) === null
      ? rejection(FailureType.BadInput, 'bad_caller', 'caller must be an address (0x + 40 hex)', 'caller')
      : null;

export const exists =
  (c: Contract): Check =>
  () =>
    c.created
      ? null
      : rejection(FailureType.NotFound, 'not_created', `contract ${c.contractId} does not exist`);

export const callerIs =
  (c: Contract, input: unknown, role: 'client' | 'worker'): Check =>
  () => {
    const expected = role === 'client' ? c.terms.client : c.worker;
    return callerOf(input) === expected
      ? null
      : rejection(
          FailureType.Forbidden,
          `not_${role}`,
          `only the contract's ${role === 'client' ? 'Client' : 'Worker'} may do this`,
        );
  };

export const statusIs =
  (c: Contract, expected: ContractStatus): Check =>
  () =>
    c.status === expected && c.decision === null
      ? null
      : rejection(
          FailureType.Conflict,
          'wrong_state',
          c.decision === null
            ? `the contract is ${c.status}, not ${expected}`
            : `the contract is ${c.status} and closing`,
        );

export const before =
  (deadline: number | null, name: string): Check =>
  () =>
    deadline !== null && isBeforeDeadline(Date.now(), deadline)
      ? null
      : rejection(FailureType.Conflict, 'late', `the ${name} deadline has passed`);

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
      c.stake !== null
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

export function validateWithdraw(c: Contract, input: unknown): Rejection | null {
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    callerIs(c, input, 'worker'),
    statusIs(c, 'matched'),
    before(c.deadlines.withdrawal, 'withdrawal'),
    () =>
      c.delivery === null
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
    before(c.deadlines.delivery, 'delivery'),
    () => deliveryFields(c, (input ?? {}) as Partial<DeliverInput>),
  );
}

/** The Client's review window (privacy-preserving, under review, before the Review Deadline): approve or dispute. */
const clientReview = (c: Contract, input: unknown, standardModeMessage: string): Check[] => [
  callerIsAddress(input),
  exists(c),
  callerIs(c, input, 'client'),
  privacyPreserving(c, standardModeMessage),
  statusIs(c, 'under-review'),
  notDisputing(c),
  before(c.deadlines.review, 'review'),
];

export function validateApprove(c: Contract, input: unknown): Rejection | null {
  return firstBroken(...clientReview(c, input, 'in standard mode the panel decides, not the Client'));
}

const notDisputing =
  (c: Contract): Check =>
  () =>
    c.disputing
      ? rejection(FailureType.Conflict, 'wrong_state', 'the Client is disputing the delivery')
      : null;

const privacyPreserving =
  (c: Contract, message: string): Check =>
  () =>
    c.terms.verificationMode === 'privacy-preserving'
      ? null
      : rejection(FailureType.Conflict, 'standard_mode', message);

/** One verdict per criterion, each `met`, `not met` or `unclear`. */
function verdictList(value: unknown, criteria: number, field: string): Rejection | null {
  const bad = (message: string) => rejection(FailureType.BadInput, 'invalid_input', message, field);
  if (!Array.isArray(value)) return bad(`${field} must be an array of verdicts`);
  if (value.length !== criteria) {
    return bad(`${field} must hold one verdict per criterion (${criteria}), got ${value.length}`);
  }
  const wrong = value.findIndex((v) => !VERDICTS.includes(v as Verdict));
  return wrong === -1 ? null : bad(`${field}[${wrong}] must be one of ${VERDICTS.join(', ')}`);
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
      const exhausted = revisionsExhausted(c.revisions.length, c.params);
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
  return firstBroken(
    callerIsAddress(input),
    exists(c),
    () =>
      c.panel === null
        ? rejection(FailureType.Conflict, 'no_panel', 'no Backup Agent panel is voting on this contract')
        : null,
    () => {
      const broken = checkBallot({
        panel: c.panel!.members,
        alreadyVoted: c.ballots.map((b) => b.voter),
        voter: callerOf(input)!,
        verdictCount: Array.isArray(votes) ? votes.length : criteria,
        criteriaCount: criteria,
        now: Date.now(),
        windowEndsAt: c.panel!.votingEndsAt,
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

const APPEAL_REJECTIONS = {
  'not-a-party': [FailureType.Forbidden, 'not_a_party'],
  'window-closed': [FailureType.Conflict, 'late'],
  'already-decided': [FailureType.Conflict, 'already_decided'],
} as const;

/** The appealing party's role, or null for anyone else. */
export function appealPartyOf(c: Contract, input: unknown): AppealParty | null {
  const caller = callerOf(input);
  if (caller === c.terms.client) return 'client';
  return caller !== null && caller === c.worker ? 'worker' : null;
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
      if (c.appeal === null || c.status !== 'resolved' || c.decision !== null || c.appealing) {
        return rejection(
          FailureType.Conflict,
          'wrong_state',
          `no panel tally of this ${c.status} contract may be appealed`,
        );
      }
      const broken = appealRefusal(c.appeal, party, Date.now());
      if (broken === null) return null;
      const [type, code] = APPEAL_REJECTIONS[broken.code];
      return rejection(type, code, broken.message);
    },
  );
}
