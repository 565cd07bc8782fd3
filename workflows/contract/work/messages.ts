// The work phase's messages (docs/protocol.md §6): the Worker's withdrawal and its delivery.
import {
  deliverSignal,
  deliverUpdate,
  withdrawSignal,
  withdrawUpdate,
  type DeliverInput,
} from '../../definitions';
import { contractDeliveredEvent, contractWithdrawnEvent } from '../../rules/event-constructors';
import { callerOf } from '../checks';
import { delegationOf } from '../delegation';
import { untilClosed, untilPanelSettled, type MessageSpec } from '../message-spec';
import { verifyDelivery } from './auto-verifier';
import { validateDeliver, validateWithdraw } from './validators';

export const withdraw: MessageSpec<{ caller: string }> = {
  message: 'withdraw',
  signal: withdrawSignal,
  update: withdrawUpdate,
  validate: validateWithdraw,
  run: async (c, input) => {
    const worker = callerOf(input)!;
    c.record(contractWithdrawnEvent(c.eventContext(worker, delegationOf(input))));
    c.decide({ kind: 'cancel', reason: 'withdrawn', actor: worker, delegation: delegationOf(input) });
    await untilClosed(c);
  },
};

export const deliver: MessageSpec<DeliverInput> = {
  message: 'deliver',
  signal: deliverSignal,
  update: deliverUpdate,
  validate: validateDeliver,
  run: async (c, input) => {
    const worker = callerOf(input)!;
    const sha256 = input.sha256.toLowerCase();
    const contentHash = input.contentHash.toLowerCase();
    const deliveredAt = Date.now();
    // Standard mode: the panel is drawn at once (by the main loop) and votes while under review.
    if (c.terms.verificationMode === 'standard') c.panel.asked(deliveredAt);
    c.work.delivered({ uri: input.uri, sha256, contentHash, deliveredAt, round: c.work.revisions.length });
    c.record(
      contractDeliveredEvent(c.eventContext(worker, delegationOf(input)), {
        deliverySha256: sha256,
        contentSha256: contentHash,
        evidenceCriterionIndexes: (input.evidence ?? []).map((e) => e.criterionIndex),
      }),
    );
    await verifyDelivery(c, input.evidence);
    // Standard mode answers once the panel is drawn, so the caller sees who votes and a vote can follow.
    if (c.panel.due) await untilPanelSettled(c);
  },
};
