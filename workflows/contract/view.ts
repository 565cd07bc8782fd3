// The contract's view (definitions ContractView): what its read model, its queries and its Updates'
// answers show, read from the contract and each phase's state. Reads only.
import type { ContractView, DeliveryRef, KeyReaders } from '../definitions';
import { mayStillAppeal } from '../rules/appeal';
import { deadlinesToIso } from '../rules/contract-terms-wire';
import { toWire } from '../rules/money';
import { cancellationReasonOf } from '../rules/status';
import { milestonesView } from './milestone-state';
import type { Contract } from './state';

const iso = (ms: number): string => new Date(ms).toISOString();

export function contractView(c: Contract): ContractView {
  const next = c.created ? c.nextDeadline(Date.now()) : null;
  const { worker, stake, quotes, winningQuote, price } = c.match;
  const { delivery: kept, autoVerification, revisions } = c.work;
  const panel = c.panel.current;
  const { criteriaMet } = c.settlement;
  const { claims } = c.review;
  const delivery: DeliveryRef | null =
    kept === null
      ? null
      : {
          uri: kept.uri,
          sha256: kept.sha256,
          contentHash: kept.contentHash,
          deliveredAt: iso(kept.deliveredAt),
          round: kept.round,
        };
  const deadlines = deadlinesToIso(c.work.deadlines);
  return {
    contractId: c.contractId,
    created: c.created,
    status: c.status,
    contractCode: c.terms.code,
    contractType: c.terms.contractType,
    awardMethod: c.terms.awardMethod,
    verificationMode: c.terms.verificationMode,
    difficulty: c.difficulty,
    client: c.terms.client,
    worker,
    taskDescription: c.terms.taskDescription,
    acceptanceCriteria: c.terms.acceptanceCriteria,
    criteriaMet: criteriaMet && [...criteriaMet],
    backupAgents: [...c.panel.seated],
    panelPending: c.panelPending,
    awaitingArbiter: c.awaitingArbiter,
    appealDeadline: c.appealOpen ? iso(c.appeal.window!.deadline) : null,
    mayAppeal: c.appealOpen ? mayStillAppeal(c.appeal.window!, Date.now()) : [],
    appealedBy: c.appeal.window?.appealedBy ?? null,
    price: price === null ? null : toWire(price),
    budget: c.terms.contractType === 'auction' ? toWire(c.terms.amount) : null,
    escrowedFunds: toWire(c.escrowedFunds),
    workerStake: stake === null ? null : toWire(stake.amount),
    disputeBond: c.review.bond === null ? null : toWire(c.review.bond.amount),
    payment: c.settlement.payment === null ? null : toWire(c.settlement.payment),
    deadlines: {
      match: deadlines.match!,
      withdrawal: deadlines.withdrawal!,
      delivery: deadlines.delivery!,
      review: deadlines.review,
    },
    nextDeadline: next === null ? null : { kind: next.kind, at: iso(next.at) },
    createdAt: iso(c.createdAt),
    materials: c.terms.supplementaryMaterials,
    delivery,
    cancellationReason: cancellationReasonOf(c.status),
    paramsVersion: c.params.version,
    workerStakeBps: c.params.workerStakeBps,
    minWorkerStake: toWire(c.params.minWorkerStake),
    disputeClaims: claims && [...claims],
    voting:
      panel === null
        ? null
        : { drawnAt: iso(panel.drawnAt), endsAt: iso(panel.votingEndsAt), tallied: c.panel.rows !== null },
    keyReaders: keyReaders(c),
    autoVerification,
    quoteCount: c.terms.contractType === 'auction' ? quotes.length : null,
    quotes: quotes.map((q) => ({
      quoteId: q.quoteId,
      bidder: q.bidder,
      price: toWire(q.price),
      confidence: q.confidence ?? null,
      message: q.message,
      submittedAt: iso(q.submittedAt),
      bidBond: toWire(q.bond.amount),
    })),
    winningQuoteId: winningQuote?.quoteId ?? null,
    revisionCount: revisions.length,
    maxRevisions: c.params.maxRevisions,
    revisions: revisions.map((r) => ({
      requestedAt: iso(r.requestedAt),
      criteria: [...r.criteria],
      note: r.note,
      deliveryDeadline: iso(r.deliveryDeadline),
      reviewDeadline: iso(r.reviewDeadline),
    })),
    milestones:
      c.milestone === null
        ? null
        : milestonesView(c.milestone, { status: c.status, deadlines: c.work.deadlines, criteriaMet }, price),
    currentMilestone: c.milestone?.index ?? null,
  };
}

/** docs/protocol.md §9: a panel exists only at the voting stage (standard) or after a dispute (privacy-preserving). */
function keyReaders(c: Contract): KeyReaders {
  const panel = c.panel.seated;
  const { worker, stake } = c.match;
  const reader = stake !== null && worker !== null ? [worker] : [];
  return {
    materials: [...reader, ...panel],
    // The Client may always ask (nothing delivered yet → the API answers 404 for the missing key).
    delivery: [c.terms.client, ...panel],
  };
}
