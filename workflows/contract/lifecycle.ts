// The contract's life as one loop: react to each decision and each deadline until a terminal status.
// Which deadline is next comes from the rules (nextDeadline); what happens when it passes is here.
// A standard delivery or a dispute draws a Backup Agent panel here; its `voting` deadline tallies.
// An auction's `match` deadline is the close of bidding (match/auction-match.ts).
import { condition } from '@temporalio/workflow';
import { FailureType } from '../definitions';
import type { NextDeadline } from '../rules/deadlines';
import { clientReviewVerdicts } from '../rules/agent-verdicts';
import { contractCreatedEvent } from '../rules/event-constructors';
import { drawCommitment, roundSecret } from '../rules/draw';
import { toWire } from '../rules/money';
import { panelFee } from '../rules/panel-fee';
import { local } from './activity-proxies';
import { settleUnappealed } from './appeal/messages';
import { closeBiddingAtDeadline } from './match/auction-match';
import { applyMilestoneDecision } from './milestone-loop';
import { newDrawSecret } from './draw-secret';
import { releaseByOperator, underWatch } from './needs-operator';
import { withdrawStartAttributes } from './observability';
import { drawPanelFor } from './panel/draw';
import { decideTally, votingRoundVoid, voidRound } from './panel/tally';
import { DeadlineTimer } from './deadline-timer';
import { mandateOf } from './delegation';
import { writeReadModel } from './read-model';
import { activityFailureMessage, activityFailureType, mandateRefusal } from './rejection';
import type { Contract } from './state';

/** Locks the Escrowed Funds (`<contractId>:escrow`). False when the ledger refuses: nothing is held. */
export async function lockEscrow(c: Contract): Promise<boolean> {
  const amount = c.terms.amount;
  // A standard-mode contract always brings in a panel: its Client pays the panel fee with the escrow
  // (one per milestone, all held at creation).
  const panels = BigInt(c.terms.milestones?.length ?? 1);
  const fee =
    c.terms.verificationMode === 'standard' ? panelFee(c.params.baPanelSize, c.params) * panels : 0n;
  let holdId: string;
  let feeHoldId: string | null;
  try {
    ({ holdId, feeHoldId } = await local.ledger.lockEscrow({
      contractId: c.contractId,
      client: c.terms.client,
      amount: toWire(amount),
      ...mandateOf(c.creation),
      ...(fee > 0n ? { panelFee: { round: 'panel' as const, amount: toWire(fee) } } : {}),
    }));
  } catch (error) {
    const refused = mandateRefusal(error);
    if (refused !== null) {
      c.escrowRefused({
        state: 'refused',
        failureType: refused.type,
        reason: refused.code,
        message: refused.message,
      });
      withdrawStartAttributes();
      return false;
    }
    const type = activityFailureType(error);
    if (type === null) throw error;
    const short = type === FailureType.InsufficientFunds;
    c.escrowRefused({
      state: 'refused',
      failureType: short ? FailureType.InsufficientFunds : FailureType.BadInput,
      reason: short ? 'insufficient_funds' : 'escrow_refused',
      message: activityFailureMessage(error),
    });
    withdrawStartAttributes();
    return false;
  }
  // After the lock (a contract never created has no secret), before the escrow counts as held: no
  // message sees the contract without its secret.
  const drawSecret = await newDrawSecret();
  c.escrowHeld({ amount, holdId }, drawSecret);
  if (feeHoldId !== null) c.panel.feeHeld('panel', { amount: fee, holdId: feeHoldId, payer: c.terms.client });
  c.record(
    contractCreatedEvent(c.eventContext(c.terms.client, c.creation), {
      contractCode: c.terms.code,
      contractType: c.terms.contractType,
      awardMethod: c.terms.awardMethod,
      verificationMode: c.terms.verificationMode,
      worker: c.terms.worker,
      amount,
      acceptanceCriteria: c.terms.acceptanceCriteria,
      deadlines: c.terms.deadlines,
      materialsSha256: c.terms.supplementaryMaterials?.sha256 ?? null,
      drawCommitment: drawCommitment(roundSecret(drawSecret, 'panel')),
    }),
  );
  return true;
}

async function onDeadline(c: Contract, kind: NextDeadline['kind']): Promise<void> {
  switch (kind) {
    case 'match':
      // An auction's bidding closes: the best quote wins, or none does (match/auction-match.ts).
      if (c.terms.contractType === 'auction') return closeBiddingAtDeadline(c);
      // Under the match lock: an accept already locking its stake finishes first and wins.
      await c.match.lock.run(() => {
        if (c.status === 'created' && c.decision === null) {
          c.decide({ kind: 'cancel', reason: 'unmatched', actor: 'system' });
        }
      });
      return;
    case 'withdrawal':
      return; // The withdrawal window closed; the Delivery Deadline is next.
    case 'delivery':
      if (c.status !== 'matched' || c.decision !== null) return;
      // After a change request the Worker has delivered: its last delivery stands and the review resumes.
      if (c.work.delivery !== null) c.work.deliveryStands();
      else c.decide({ kind: 'cancel', reason: 'absent', actor: 'system' });
      return;
    case 'review':
      // A dispute that arrived in time is still locking its bond: it decides, unless its lock fails.
      if (c.review.disputing) await condition(() => !c.review.disputing);
      if (c.status === 'under-review' && c.decision === null) {
        const criteriaMet = clientReviewVerdicts(c.terms.acceptanceCriteria.length, { approved: true });
        c.decide({ kind: 'resolve', source: 'review-timeout', criteriaMet, actor: 'system' });
      }
      return;
    case 'voting':
      // Silence decides nothing: a round without a majority of votes is void and drawn again.
      if (votingRoundVoid(c)) return underWatch(c, 'void-round', () => voidRound(c));
      decideTally(c);
      return;
    case 'appeal':
      // An appeal accepted before the window closed finishes locking its bond first.
      if (c.appeal.locking) await condition(() => !c.appeal.locking);
      settleUnappealed(c);
      return;
    case 'recruitment':
      return; // The main loop draws again (panelToDraw), or hands the contract to the arbiter.
  }
}

/** A panel is due and not seated: drawn at once, then again at each retry of the recruitment wait. */
function panelToDraw(c: Contract, now: number): boolean {
  const { due, current, recruitment } = c.panel;
  if (!due || current !== null || c.decision !== null) return false;
  return recruitment === null || (!recruitment.arbiter && now >= recruitment.retryAt);
}

/** Runs the contract from `created` to a terminal status. */
export async function runContract(c: Contract): Promise<void> {
  const timer = new DeadlineTimer();
  while (!c.terminal) {
    // Each step that moves money or seats a panel runs under watch: a failure waits for the operator.
    if (c.operator.releasing) {
      await underWatch(c, 'release', () => releaseByOperator(c));
      continue;
    }
    if (c.decision !== null) {
      const step = c.decision.kind === 'cancel' ? 'cancellation' : 'settlement';
      await underWatch(c, step, () => applyMilestoneDecision(c));
      continue;
    }
    if (panelToDraw(c, Date.now())) {
      await underWatch(c, 'panel-draw', () => drawPanelFor(c));
      continue;
    }
    c.publishNow(); // e.g. NextDeadline moves from the withdrawal to the delivery deadline
    const seen = c.revision;
    // Before the wait (a change a message makes meanwhile wakes it): a timer's change is written too.
    await writeReadModel(c);
    const next = c.nextDeadline(Date.now());
    // It also wakes for a change to publish alone (a quote): the timer keeps running.
    const changed = await timer.until(() => c.revision !== seen || c.publication.pending, next);
    if (!changed && next !== null) await onDeadline(c, next.kind);
  }
  c.publishNow();
}
