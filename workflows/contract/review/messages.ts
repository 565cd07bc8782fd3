// The review phase's messages (docs/protocol.md §7): the Client's three answers to a delivery —
// approve, request changes, dispute.
import {
  approveSignal,
  approveUpdate,
  disputeSignal,
  disputeUpdate,
  requestChangesSignal,
  requestChangesUpdate,
  type DisputeInput,
  type RequestChangesInput,
} from '../../definitions';
import { clientReviewVerdicts } from '../../rules/agent-verdicts';
import {
  agentVerifiedEvent,
  changeRequestedEvent,
  contractDisputedEvent,
} from '../../rules/event-constructors';
import { disputeBondFor } from '../../rules/holds';
import { deadlinesAfterRevision, revisionCriteria } from '../../rules/revisions';
import { lockPartyBond } from '../bonds';
import { callerOf } from '../checks';
import { delegationOf } from '../delegation';
import { recheck, untilClosed, untilPanelSettled, type MessageSpec } from '../message-spec';
import { validateApprove, validateDispute, validateRequestChanges } from './validators';

export const approve: MessageSpec<{ caller: string }> = {
  message: 'approve',
  signal: approveSignal,
  update: approveUpdate,
  validate: validateApprove,
  run: async (c, input) => {
    const client = callerOf(input)!;
    const criteriaMet = clientReviewVerdicts(c.terms.acceptanceCriteria.length, { approved: true });
    c.record(
      agentVerifiedEvent(c.eventContext(client, delegationOf(input)), {
        agentId: client,
        role: 'client',
        deliverySha256: c.work.delivery!.sha256,
        verdicts: criteriaMet,
      }),
    );
    c.decide({
      kind: 'resolve',
      source: 'client-approval',
      criteriaMet,
      actor: client,
      delegation: delegationOf(input),
    });
    await untilClosed(c);
  },
};

/**
 * The Client sends the delivery back with the criteria it finds unmet (docs/protocol.md §7): `matched`
 * again, the delivery deadline at least `revisionWindow` away and the review deadline moved as far. The
 * delivery stays: without a redelivery it stands when the new delivery deadline passes (lifecycle.ts).
 */
export const requestChanges: MessageSpec<RequestChangesInput> = {
  message: 'requestChanges',
  signal: requestChangesSignal,
  update: requestChangesUpdate,
  validate: validateRequestChanges,
  run: (c, input) => {
    const client = callerOf(input)!;
    const checked = revisionCriteria(input.criteria, c.terms.acceptanceCriteria.length);
    if (!checked.ok) throw new RangeError(checked.message); // the validator refused it already
    const now = Date.now();
    const { deadlines } = c.work;
    const moved = deadlinesAfterRevision(
      { delivery: deadlines.delivery, review: deadlines.review! },
      now,
      c.params,
    );
    c.record(
      changeRequestedEvent(c.eventContext(client), {
        client,
        deliverySha256: c.work.delivery!.sha256,
        criteria: checked.criteria,
      }),
    );
    c.work.changesRequested({
      requestedAt: now,
      criteria: checked.criteria,
      note: input.note ?? null,
      deliveryDeadline: moved.delivery,
      reviewDeadline: moved.review,
    });
    return Promise.resolve();
  },
};

export const dispute: MessageSpec<DisputeInput> = {
  message: 'dispute',
  signal: disputeSignal,
  update: disputeUpdate,
  validate: validateDispute,
  // The Dispute Bond is locked first; while it locks, approve and the review timeout wait (disputing).
  // The answer comes once the panel is drawn, so it names the Backup Agents.
  run: async (c, input) => {
    recheck(c, input, validateDispute);
    const client = callerOf(input)!;
    const amount = disputeBondFor(c.amountAtStake, c.params);
    const bond = await lockPartyBond(c, 'panel', client, amount, delegationOf(input));
    const claims = input.claims === undefined ? undefined : [...input.claims];
    c.record(
      agentVerifiedEvent(c.eventContext(client, delegationOf(input)), {
        agentId: client,
        role: 'client',
        deliverySha256: c.work.delivery!.sha256,
        verdicts: clientReviewVerdicts(c.terms.acceptanceCriteria.length, { approved: false, claims }),
      }),
    );
    c.record(contractDisputedEvent(c.eventContext(client, delegationOf(input)), { disputeBond: amount }));
    c.panel.asked(Date.now());
    c.review.disputed(bond, claims ?? null);
    await untilPanelSettled(c);
  },
};
