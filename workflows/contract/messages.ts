// The contract's messages. Each is registered twice over one handler (docs/api.md): as an Update whose
// synchronous validator refuses at once (the API's path), and as a Signal that runs the same checks
// and, when the rules refuse it, records a `contract.message-rejected` event and changes nothing.
// Handlers that end the contract leave the money to the main loop (a Decision) and wait until it is done,
// so the Update's answer is the view after the change.
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { ApplicationFailure, condition, setHandler, TemporalFailure } from '@temporalio/workflow';
import {
  appealSignal,
  seatsFreedSignal,
  appealUpdate,
  type AppealInput,
  acceptSignal,
  acceptUpdate,
  approveSignal,
  approveUpdate,
  awardSignal,
  awardUpdate,
  quoteSignal,
  quoteUpdate,
  type AwardInput,
  type QuoteInput,
  cancelSignal,
  cancelUpdate,
  contractQuery,
  createdUpdate,
  declineSignal,
  declineUpdate,
  deliverSignal,
  deliverUpdate,
  disputeSignal,
  disputeUpdate,
  requestChangesSignal,
  requestChangesUpdate,
  type RequestChangesInput,
  snapshotQuery,
  eventsQuery,
  FailureType,
  voteSignal,
  voteUpdate,
  votesQuery,
  type DisputeInput,
  type VoteInput,
  withdrawSignal,
  withdrawUpdate,
  type DeliverInput,
  type MessageReceipt,
} from '../definitions';
import {
  agentVerifiedEvent,
  changeRequestedEvent,
  contractDeliveredEvent,
  contractAppealEvent,
  contractDisputedEvent,
  contractMatchedEvent,
  contractWithdrawnEvent,
  messageRejectedEvent,
} from '../rules/event-constructors';
import { clientReviewVerdicts } from '../rules/agent-verdicts';
import { deadlinesAfterRevision, revisionCriteria } from '../rules/revisions';
import type { ContractMessage } from '../rules/message-names';
import { disputeBondFor, workerStakeFor } from '../rules/holds';
import { toWire } from '../rules/money';
import { panelFee } from '../rules/panel-fee';
import type { CancellationReason } from '../rules/status';
import { decideTally, everyoneVoted, settleUnappealed } from './panel';
import { appealBond } from '../rules/appeal';
import { messageLock } from './activity-proxies';
import {
  activityFailureMessage,
  asActivityFailure,
  isInsufficientFunds,
  mandateRefusal,
  reject,
  rejection,
  rejectionOf,
  type Rejection,
} from './rejection';
import { verifyDelivery } from './auto-verifier';
import { votesResult, writeReadModel } from './read-model';
import { admit, bidderLimit, mayLogRejection, placeAtCap, settleSpending } from './budget';
import { receipt } from './receipt';
import { awardContract } from './auction-match';
import {
  admitQuote,
  candidateQuote,
  quotedPrice,
  recordQuote,
  validateAward,
  validateQuote,
} from './bidding';
import { holdBidBond } from './bid-bond';
import type { Contract, HeldFunds } from './state';
import { lockWorkerStake } from './worker-stake';
import { delegationOf, mandateOf } from './delegation';
import {
  appealPartyOf,
  callerOf,
  validateAccept,
  validateApprove,
  validateCancel,
  validateDecline,
  validateDeliver,
  validateDispute,
  validateRequestChanges,
  validateVote,
  validateWithdraw,
  validateAppeal,
} from './validators';

interface MessageSpec<I> {
  message: ContractMessage;
  signal: SignalDefinition<[I]>;
  update: UpdateDefinition<MessageReceipt, [I]>;
  validate(c: Contract, input: unknown): Rejection | null;
  /** Runs after the checks passed. May wait (a lock, an activity) and throw a rejection. */
  run(c: Contract, input: I): Promise<void>;
}

/** Re-checks after a wait: the state may have changed while the message queued for the lock. */
function recheck(c: Contract, input: unknown, validate: MessageSpec<unknown>['validate']): void {
  const broken = validate(c, input);
  if (broken !== null) reject(broken);
}

async function untilClosed(c: Contract): Promise<void> {
  await condition(() => c.terminal);
}

const accept: MessageSpec<{ caller: string }> = {
  message: 'accept',
  signal: acceptSignal,
  update: acceptUpdate,
  validate: validateAccept,
  // Open tender: the first accept whose stake lock succeeds wins. The match lock serializes callers,
  // so a loser is refused before anything of it is locked, and a failed lock frees the way for the next.
  // An agent has one accept waiting at a time (budget.ts), so a flood cannot fill Temporal's in-flight slots.
  run: (c, input) => {
    const worker = callerOf(input)!;
    c.spent.acceptsPending.push(worker);
    return c.matchLock.run(async () => {
      try {
        recheck(c, input, validateAccept);
        const amount = c.stakeAmount();
        const { holdId } = await lockOrRefuse('Worker Stake', amount, () =>
          lockWorkerStake(c, worker, amount, delegationOf(input)),
        );
        c.matched(worker, { amount, holdId });
        c.record(
          contractMatchedEvent(c.eventContext(worker, delegationOf(input)), {
            worker,
            via: 'accept',
            price: c.terms.amount,
            workerStake: amount,
          }),
        );
      } finally {
        c.spent.acceptsPending.splice(c.spent.acceptsPending.indexOf(worker), 1);
      }
    });
  },
};

/** Decline and cancel end a contract still in `created`, under the match lock: an accept already locking wins. */
function endBeforeMatch(
  spec: Omit<MessageSpec<{ caller: string }>, 'run'>,
  reason: CancellationReason,
): MessageSpec<{ caller: string }> {
  return {
    ...spec,
    run: async (c, input) => {
      await c.matchLock.run(() => {
        recheck(c, input, spec.validate);
        c.decide({ kind: 'cancel', reason, actor: callerOf(input)!, delegation: delegationOf(input) });
      });
      await untilClosed(c);
    },
  };
}

const decline = endBeforeMatch(
  { message: 'decline', signal: declineSignal, update: declineUpdate, validate: validateDecline },
  'unmatched',
);

const cancel = endBeforeMatch(
  { message: 'cancel', signal: cancelSignal, update: cancelUpdate, validate: validateCancel },
  'by-client',
);

const withdraw: MessageSpec<{ caller: string }> = {
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

const deliver: MessageSpec<DeliverInput> = {
  message: 'deliver',
  signal: deliverSignal,
  update: deliverUpdate,
  validate: validateDeliver,
  run: async (c, input) => {
    const worker = callerOf(input)!;
    const sha256 = input.sha256.toLowerCase();
    const contentHash = input.contentHash.toLowerCase();
    // Standard mode: the panel is drawn at once (by the main loop) and votes while under review.
    const panelDue = c.terms.verificationMode === 'standard';
    c.delivered(
      { uri: input.uri, sha256, contentHash, deliveredAt: Date.now(), round: c.revisions.length },
      panelDue,
    );
    c.record(
      contractDeliveredEvent(c.eventContext(worker, delegationOf(input)), {
        deliverySha256: sha256,
        contentSha256: contentHash,
        evidenceCriterionIndexes: (input.evidence ?? []).map((e) => e.criterionIndex),
      }),
    );
    await verifyDelivery(c, input.evidence);
    // Standard mode answers once the panel is drawn, so the caller sees who votes and a vote can follow.
    if (c.panelDue) await condition(() => panelSettled(c));
  },
};

const approve: MessageSpec<{ caller: string }> = {
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
        deliverySha256: c.delivery!.sha256,
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
const requestChanges: MessageSpec<RequestChangesInput> = {
  message: 'requestChanges',
  signal: requestChangesSignal,
  update: requestChangesUpdate,
  validate: validateRequestChanges,
  run: (c, input) => {
    const client = callerOf(input)!;
    const checked = revisionCriteria(input.criteria, c.terms.acceptanceCriteria.length);
    if (!checked.ok) throw new RangeError(checked.message); // the validator refused it already
    const now = Date.now();
    const moved = deadlinesAfterRevision(
      { delivery: c.deadlines.delivery, review: c.deadlines.review! },
      now,
      c.params,
    );
    c.record(
      changeRequestedEvent(c.eventContext(client), {
        client,
        deliverySha256: c.delivery!.sha256,
        criteria: checked.criteria,
      }),
    );
    c.changesRequested({
      requestedAt: now,
      criteria: checked.criteria,
      note: input.note ?? null,
      deliveryDeadline: moved.delivery,
      reviewDeadline: moved.review,
    });
    return Promise.resolve();
  },
};

/** Locks a hold for the caller, or refuses with InsufficientFunds (402), nothing locked. */
async function lockOrRefuse<T extends { holdId: string }>(
  what: string,
  amount: bigint,
  lock: () => Promise<T>,
): Promise<T> {
  try {
    return await lock();
  } catch (error) {
    const refused = mandateRefusal(error);
    if (refused !== null) return reject(refused);
    // A local lock's (activity-proxies.ts messageLock) other failures fail the step, as a scheduled one's.
    if (!isInsufficientFunds(error)) throw asActivityFailure(error, `lock ${what}`);
    return reject(
      rejection(
        FailureType.InsufficientFunds,
        'insufficient_funds',
        `the ${what} of ${amount} could not be locked: ${activityFailureMessage(error)}`,
      ),
    );
  }
}

/**
 * A party's bond and the panel fee it brings, for a message only one caller can pass (the Client's
 * dispute, the one appeal), so it cannot race (activity-proxies.ts): both held in one batch or neither
 * (402), `locking` set while they lock (the deadline it stops waits); nothing is held for a zero amount.
 */
async function lockPartyBond(
  what: string,
  amount: bigint,
  fee: bigint,
  locking: (on: boolean) => void,
  lock: (wire: string, feeWire: string | null) => Promise<{ holdId: string; feeHoldId: string | null }>,
): Promise<{ bond: HeldFunds | null; fee: HeldFunds | null }> {
  locking(true);
  try {
    if (amount === 0n && fee === 0n) return { bond: null, fee: null };
    const held = await lockOrRefuse(`${what} and panel fee`, amount + fee, () =>
      lock(toWire(amount), fee > 0n ? toWire(fee) : null),
    );
    return {
      bond: amount > 0n ? { amount, holdId: held.holdId } : null,
      fee: held.feeHoldId !== null ? { amount: fee, holdId: held.feeHoldId } : null,
    };
  } finally {
    locking(false);
  }
}

/** The panel is drawn, or none can be seated yet (the answer says the contract waits), or it ended. */
function panelSettled(c: Contract): boolean {
  return c.panel !== null || c.recruitment !== null || c.terminal;
}

const dispute: MessageSpec<DisputeInput> = {
  message: 'dispute',
  signal: disputeSignal,
  update: disputeUpdate,
  validate: validateDispute,
  // The Dispute Bond is locked first; while it locks, approve and the review timeout wait (c.disputing).
  // The answer comes once the panel is drawn, so it names the Backup Agents.
  run: async (c, input) => {
    recheck(c, input, validateDispute);
    const client = callerOf(input)!;
    const amount = disputeBondFor(c.escrowedFunds, c.params);
    const held = await lockPartyBond(
      'Dispute Bond',
      amount,
      panelFee(c.params.baPanelSize, c.params),
      (on) => c.disputeBondLocking(on),
      (wire, feeWire) =>
        messageLock(true).lockBond({
          contractId: c.contractId,
          kind: 'dispute-bond',
          party: client,
          amount: wire,
          ...mandateOf(delegationOf(input)),
          ...(feeWire === null ? {} : { panelFee: { round: 'panel' as const, amount: feeWire } }),
        }),
    );
    if (held.fee !== null) c.feeHeld('panel', { ...held.fee, payer: client });
    const claims = input.claims === undefined ? undefined : [...input.claims];
    c.record(
      agentVerifiedEvent(c.eventContext(client, delegationOf(input)), {
        agentId: client,
        role: 'client',
        deliverySha256: c.delivery!.sha256,
        verdicts: clientReviewVerdicts(c.terms.acceptanceCriteria.length, { approved: false, claims }),
      }),
    );
    c.record(contractDisputedEvent(c.eventContext(client, delegationOf(input)), { disputeBond: amount }));
    c.disputed(held.bond, claims ?? null);
    await condition(() => panelSettled(c));
  },
};

const vote: MessageSpec<VoteInput> = {
  message: 'vote',
  signal: voteSignal,
  update: voteUpdate,
  validate: validateVote,
  // The vote stakes the bond its seat already holds (so it never fails for funds); nothing about the
  // ballot is published until the tally.
  run: async (c, input) => {
    recheck(c, input, validateVote);
    c.voted({ voter: callerOf(input)!, verdicts: [...input.votes] });
    if (everyoneVoted(c)) decideTally(c);
  },
};

/**
 * The Client or the Worker after a panel's tally: a waiver (the tally settles once every party that
 * may appeal has waived), or an appeal — the Appeal Bond locked (appeal-deadline waits meanwhile),
 * `disputed`, an appeal panel drawn by the main loop; the answer names it, or says it is pending.
 */
const appeal: MessageSpec<AppealInput> = {
  message: 'appeal',
  signal: appealSignal,
  update: appealUpdate,
  validate: validateAppeal,
  run: async (c, input) => {
    recheck(c, input, validateAppeal);
    const party = appealPartyOf(c, input)!;
    const caller = callerOf(input)!;
    if (input.waive === true) {
      c.waived(party);
      c.record(contractAppealEvent(c.eventContext(caller, delegationOf(input)), { party, appealBond: null }));
      settleUnappealed(c);
      return;
    }
    const amount = appealBond(c.escrowedFunds, c.params);
    const held = await lockPartyBond(
      'Appeal Bond',
      amount,
      panelFee(c.params.appealPanelSize, c.params),
      (on) => c.appealLocking(on),
      (wire, feeWire) =>
        messageLock(true).lockAppealBond({
          contractId: c.contractId,
          party: caller,
          amount: wire,
          ...mandateOf(delegationOf(input)),
          ...(feeWire === null ? {} : { panelFee: { round: 'appeal' as const, amount: feeWire } }),
        }),
    );
    if (held.fee !== null) c.feeHeld('appeal', { ...held.fee, payer: caller });
    c.record(contractAppealEvent(c.eventContext(caller, delegationOf(input)), { party, appealBond: amount }));
    c.appealed(party, held.bond);
    await condition(() => panelSettled(c));
  },
};

/**
 * An auction bid (bidding.ts): its bid bond is held (bid-bond.ts), then it is recorded; the bidder's
 * earlier quote is replaced and its bond moved. Under the match lock: no close of bidding reads the
 * quotes while a bond moves, and a quote queued behind a close is refused by the recheck.
 */
const quote: MessageSpec<QuoteInput> = {
  message: 'quote',
  signal: quoteSignal,
  update: quoteUpdate,
  validate: validateQuote,
  run: (c, input) => {
    const sequence = admitQuote(c, input);
    return c.matchLock.run(async () => {
      recheck(c, input, validateQuote);
      // Quotes taken while this one waited for the lock may have filled the cap or raised the worst.
      const place = placeAtCap(c, candidateQuote(c, input));
      if (place.kind === 'full') reject(bidderLimit());
      const displaced = place.kind === 'replaces' ? place.quote : null;
      const bidder = callerOf(input)!;
      const amount = workerStakeFor(quotedPrice(input), c.params);
      const bond = await holdBidBond(c, bidder, amount, displaced, delegationOf(input));
      recordQuote(c, input, bond, sequence, displaced);
    });
  },
};

/** The Client closes an auction's bidding early (auction-match.ts): its pick, or the best quote. */
const award: MessageSpec<AwardInput> = {
  message: 'award',
  signal: awardSignal,
  update: awardUpdate,
  validate: validateAward,
  run: awardContract,
};

function recordRejection(c: Contract, message: ContractMessage, input: unknown, r: Rejection): void {
  const actor = callerOf(input) ?? 'system';
  if (!mayLogRejection(c, actor)) return;
  c.record(
    messageRejectedEvent(c.eventContext(actor, delegationOf(input)), {
      message,
      code: r.code,
      ...(r.field === undefined ? {} : { field: r.field }),
    }),
  );
}

/** The message's own rules, then the run's budget (budget.ts): the Update validator and the Signal's check. */
function admission<I>(c: Contract, spec: MessageSpec<I>, input: unknown): Rejection | null {
  return spec.validate(c, input) ?? admit(c, spec.message, input);
}

/** A refusal after acceptance is counted (budget.ts) and recorded; null when `error` is no refusal. */
function refusedAfterAdmission<I>(
  c: Contract,
  spec: MessageSpec<I>,
  input: I,
  error: unknown,
): Rejection | null {
  const refused = rejectionOf(error);
  settleSpending(c, callerOf(input), refused);
  if (refused !== null) recordRejection(c, spec.message, input, refused);
  return refused;
}

async function signalled<I>(c: Contract, spec: MessageSpec<I>, input: I): Promise<void> {
  const broken = admission(c, spec, input);
  if (broken !== null) return recordRejection(c, spec.message, input, broken);
  try {
    await spec.run(c, input);
  } catch (error) {
    if (refusedAfterAdmission(c, spec, input, error) !== null) return;
    // A Signal has no caller to answer: a step that failed for good is logged, never fails the run
    // (which would leave every hold of the contract held).
    if (!(error instanceof TemporalFailure)) throw error;
    recordRejection(c, spec.message, input, rejection(FailureType.Conflict, 'step_failed', error.message));
  }
}

// The handlers keep the shape (the awaits) they had before the budget: the order in which an Update
// completes and the main loop wakes within one activation is part of the saved histories.
function register<I>(c: Contract, spec: MessageSpec<I>): void {
  setHandler(
    spec.update,
    async (input: I) => {
      c.spent.updates++;
      try {
        await spec.run(c, input);
      } catch (error) {
        refusedAfterAdmission(c, spec, input, error);
        await writeReadModel(c);
        throw error;
      }
      // Before the answer: a read right after it sees the change.
      await writeReadModel(c);
      return receipt(c, spec.message, input);
    },
    {
      validator: (input: I) => {
        const broken = admission(c, spec, input);
        if (broken !== null) reject(broken);
      },
    },
  );
  setHandler(spec.signal, async (input: I) => {
    await signalled(c, spec, input);
    await writeReadModel(c);
  });
}

/** The Update the API sends with the start: the view once the escrow is held, or why it is not. */
function registerCreated(c: Contract): void {
  setHandler(createdUpdate, async () => {
    await condition(() => c.escrow.state !== 'pending');
    if (c.escrow.state === 'refused') {
      throw ApplicationFailure.nonRetryable(c.escrow.message, c.escrow.failureType, {
        code: c.escrow.reason,
      });
    }
    await writeReadModel(c);
    return c.view();
  });
}

export function registerHandlers(c: Contract): void {
  registerCreated(c);
  register(c, accept);
  register(c, decline);
  register(c, cancel);
  register(c, withdraw);
  register(c, deliver);
  register(c, approve);
  register(c, dispute);
  register(c, requestChanges);
  register(c, vote);
  register(c, appeal);
  register(c, quote);
  register(c, award);
  setHandler(seatsFreedSignal, () => c.seatsMayBeFree());
  setHandler(contractQuery, () => c.view());
  setHandler(votesQuery, () => votesResult(c));
  setHandler(eventsQuery, () => [...c.events]);
  setHandler(snapshotQuery, () => ({
    view: c.view(),
    events: [...c.events],
    ballotsCast: c.ballots.map((b) => b.voter),
  }));
}
