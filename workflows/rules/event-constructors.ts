// The event constructors: each copies only the fields it names, so nothing else (content, a key, a
// sealed price) can slip into the content-free log of ./events.
import type { Address } from './address';
import { agentVerdictFor } from './agent-verdicts';
import type { ContractCode, ContractType, AwardMethod, VerificationMode } from './contract-kinds';
import { criterionKey, criterionKeys } from './criterion-keys';
import type { DrawRecord } from './draw';
import type {
  Actor,
  AgentVerifiedEvent,
  ContractCancelledEvent,
  ContractCreatedEvent,
  ContractDeliveredEvent,
  ContractAppealEvent,
  ContractDisputedEvent,
  ContractEventType,
  ContractMatchedEvent,
  ContractResolvedEvent,
  ContractSettledEvent,
  MilestoneSettledEvent,
  ContractWithdrawnEvent,
  EventBase,
  HoldSplitWire,
  MatchedVia,
  MessageRejectedEvent,
  NeedsOperatorEvent,
  PanelVoidedEvent,
  OperatorAction,
  OperatorResolvedEvent,
  PanelDrawnEvent,
  QuoteReceivedEvent,
  ResolutionSource,
  VerifierRole,
} from './events';
import type { HoldSplit } from './holds';
import type { ContractMessage } from './message-names';
import { toWire } from './money';
import { CANONICAL_SHA256_RE } from './sha256';
import type { CancellationReason, CancelledStatus, SettledStatus, SettlementTier } from './status';
import type { Verdict } from './verdicts';

export interface EventContext {
  contractId: string;
  /** Epoch milliseconds or an ISO-8601 instant. */
  at: number | string;
  actor: Actor;
  /** The delegate key that acted for `actor` under a mandate (docs/agents.md "Mandates"). */
  delegate?: string;
}

export const MACHINE_CODE_RE = /^[a-z][a-z0-9_-]{0,63}$/;

function isoAt(at: number | string): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new RangeError(`event time must be a valid instant, got ${String(at)}`);
  return new Date(ms).toISOString();
}

function base<T extends ContractEventType>(type: T, ctx: EventContext): EventBase<T> {
  if (ctx.contractId === '') throw new RangeError('contractId must not be empty');
  return {
    type,
    contractId: ctx.contractId,
    at: isoAt(ctx.at),
    actor: ctx.actor,
    ...(ctx.delegate === undefined ? {} : { delegate: ctx.delegate }),
  };
}

function sha256Hex(value: string, name: string): string {
  const hex = value.toLowerCase();
  if (!CANONICAL_SHA256_RE.test(hex)) throw new RangeError(`${name} must be 64 hex characters`);
  return hex;
}

function holdsToWire(holds: readonly HoldSplit[]): HoldSplitWire[] {
  return holds.map((h) => ({
    hold: h.hold,
    amount: toWire(h.amount),
    parts: h.parts.map((p) => ({ role: p.role, amount: toWire(p.amount) })),
  }));
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

export function contractCreatedEvent(
  ctx: EventContext,
  c: {
    contractCode: ContractCode;
    contractType: ContractType;
    awardMethod: AwardMethod;
    verificationMode: VerificationMode;
    worker?: Address | null;
    amount: bigint;
    /** Only whether each criterion carries a check is read, never its text or parameters. */
    acceptanceCriteria: readonly (string | { check?: unknown })[];
    deadlines: { match: number; withdrawal: number; delivery: number; review?: number | null };
    materialsSha256?: string | null;
    drawCommitment?: string | null;
  },
): ContractCreatedEvent {
  const d = c.deadlines;
  return {
    ...base('contract.created', ctx),
    contractCode: c.contractCode,
    contractType: c.contractType,
    awardMethod: c.awardMethod,
    verificationMode: c.verificationMode,
    ...optional('worker', c.worker ?? undefined),
    amount: toWire(c.amount),
    criteria: criterionKeys(c.acceptanceCriteria.length),
    checkedCriteria: c.acceptanceCriteria.flatMap((cr, i) =>
      typeof cr === 'object' && cr.check !== undefined ? [criterionKey(i)] : [],
    ),
    deadlines: {
      match: isoAt(d.match),
      withdrawal: isoAt(d.withdrawal),
      delivery: isoAt(d.delivery),
      ...optional('review', d.review == null ? undefined : isoAt(d.review)),
    },
    ...optional(
      'materialsSha256',
      c.materialsSha256 ? sha256Hex(c.materialsSha256, 'materialsSha256') : undefined,
    ),
    ...optional(
      'drawCommitment',
      c.drawCommitment ? sha256Hex(c.drawCommitment, 'drawCommitment') : undefined,
    ),
  };
}

export function needsOperatorEvent(
  ctx: EventContext,
  e: { step: string; failureType: string },
): NeedsOperatorEvent {
  if (!MACHINE_CODE_RE.test(e.step)) throw new RangeError('step must be a machine code');
  // A failure type is an identifier (e.g. `HoldNotOpen`); anything else is recorded as `unknown`.
  const failureType = /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(e.failureType) ? e.failureType : 'unknown';
  return { ...base('contract.needs-operator', ctx), step: e.step, failureType };
}

export function operatorResolvedEvent(ctx: EventContext, action: OperatorAction): OperatorResolvedEvent {
  return { ...base('contract.operator-resolved', ctx), action };
}

export function quoteReceivedEvent(
  ctx: EventContext,
  q: { quoteId: string; confidence?: number },
): QuoteReceivedEvent {
  return {
    ...base('contract.quote-received', ctx),
    quoteId: q.quoteId,
    ...optional('confidence', q.confidence),
  };
}

export function contractMatchedEvent(
  ctx: EventContext,
  m: {
    worker: Address;
    via: MatchedVia;
    quoteId?: string;
    price: bigint;
    workerStake: bigint;
    refundedToClient?: bigint;
  },
): ContractMatchedEvent {
  return {
    ...base('contract.matched', ctx),
    worker: m.worker,
    via: m.via,
    ...optional('quoteId', m.quoteId),
    price: toWire(m.price),
    workerStake: toWire(m.workerStake),
    ...optional(
      'refundedToClient',
      m.refundedToClient === undefined ? undefined : toWire(m.refundedToClient),
    ),
  };
}

export function contractWithdrawnEvent(ctx: EventContext): ContractWithdrawnEvent {
  return base('contract.withdrawn', ctx);
}

export function contractDeliveredEvent(
  ctx: EventContext,
  d: { deliverySha256: string; contentSha256: string; evidenceCriterionIndexes: readonly number[] },
): ContractDeliveredEvent {
  return {
    ...base('contract.delivered', ctx),
    deliverySha256: sha256Hex(d.deliverySha256, 'deliverySha256'),
    contentSha256: sha256Hex(d.contentSha256, 'contentSha256'),
    evidenceCriteria: [...new Set(d.evidenceCriterionIndexes)].sort((a, b) => a - b).map(criterionKey),
  };
}

/**
 * A verdict over the delivery: a BA's ballot (published at the tally, votes being sealed until
 * then), the Client's review, or the automatic checker's scores. `verdicts` are indexed by
 * criterion; `undefined` entries were not evaluated and are left out of `criteria`.
 */
export function agentVerifiedEvent(
  ctx: EventContext,
  v: {
    agentId: string;
    role: VerifierRole;
    deliverySha256: string;
    verdicts: readonly (Verdict | undefined)[];
    confidence?: number;
  },
): AgentVerifiedEvent {
  const evaluated = v.verdicts.flatMap((verdict, i) => (verdict === undefined ? [] : [{ verdict, i }]));
  if (v.confidence !== undefined && !(v.confidence >= 0 && v.confidence <= 1)) {
    throw new RangeError(`confidence must be in [0, 1], got ${v.confidence}`);
  }
  return {
    ...base('agent.verified', ctx),
    agentId: v.agentId,
    target: sha256Hex(v.deliverySha256, 'deliverySha256'),
    verdict: agentVerdictFor(evaluated.map((e) => e.verdict)),
    criteria: evaluated.map((e) => criterionKey(e.i)),
    ...optional('confidence', v.confidence),
    role: v.role,
  };
}

/**
 * The Client's change request (docs/protocol.md §7): an agent.verified `revise` over the delivery,
 * naming the keys of the criteria it finds unmet. Never its note (a party-only field).
 */
export function changeRequestedEvent(
  ctx: EventContext,
  r: { client: Address; deliverySha256: string; criteria: readonly number[] },
): AgentVerifiedEvent {
  if (r.criteria.length === 0) throw new RangeError('a change request names at least one criterion');
  return {
    ...base('agent.verified', ctx),
    agentId: r.client,
    target: sha256Hex(r.deliverySha256, 'deliverySha256'),
    verdict: 'revise',
    criteria: [...new Set(r.criteria)].sort((a, b) => a - b).map(criterionKey),
    role: 'client',
  };
}

export function contractAppealEvent(
  ctx: EventContext,
  a: { party: 'client' | 'worker'; appealBond: bigint | null },
): ContractAppealEvent {
  return a.appealBond === null
    ? { ...base('contract.appeal-waived', ctx), party: a.party }
    : { ...base('contract.appealed', ctx), party: a.party, appealBond: toWire(a.appealBond) };
}

export function contractDisputedEvent(ctx: EventContext, d: { disputeBond: bigint }): ContractDisputedEvent {
  return { ...base('contract.disputed', ctx), disputeBond: toWire(d.disputeBond) };
}

export function panelDrawnEvent(
  ctx: EventContext,
  draw: DrawRecord,
  votingDeadline: number,
): PanelDrawnEvent {
  if (draw.contractId !== ctx.contractId) throw new RangeError('the draw belongs to another contract');
  return {
    ...base('contract.panel-drawn', ctx),
    deliverySha256: sha256Hex(draw.deliveryHash, 'deliveryHash'),
    ...optional('secret', draw.secret ?? undefined),
    seed: draw.seed,
    panelSize: draw.panelSize,
    round: draw.round,
    candidates: draw.candidates.map((c) => ({ address: c.address, stake: toWire(c.stake) })),
    panel: [...draw.panel],
    votingDeadline: isoAt(votingDeadline),
  };
}

export function panelVoidedEvent(
  ctx: EventContext,
  v: { panel: readonly Address[]; silent: readonly Address[] },
): PanelVoidedEvent {
  return { ...base('contract.panel-voided', ctx), panel: [...v.panel], silent: [...v.silent] };
}

export function contractResolvedEvent(
  ctx: EventContext,
  r: { source: ResolutionSource; criteriaMet: readonly Verdict[] },
): ContractResolvedEvent {
  return {
    ...base('contract.resolved', ctx),
    decision: 'terminate',
    source: r.source,
    verdict: agentVerdictFor(r.criteriaMet),
    successCriteria: r.criteriaMet.map((v, i) => ({ key: criterionKey(i), met: v === 'met' })),
    unclear: r.criteriaMet.flatMap((v, i) => (v === 'unclear' ? [criterionKey(i)] : [])),
  };
}

export function contractSettledEvent(
  ctx: EventContext,
  s: { status: SettledStatus; tier: SettlementTier; payment: bigint; holds: readonly HoldSplit[] },
): ContractSettledEvent {
  return {
    ...base('contract.settled', ctx),
    status: s.status,
    tier: s.tier,
    payment: toWire(s.payment),
    holds: holdsToWire(s.holds),
  };
}

export function milestoneSettledEvent(
  ctx: EventContext,
  m: {
    milestone: number;
    status: SettledStatus | 'cancelled-absent';
    payment: bigint;
    holds: readonly HoldSplit[];
  },
): MilestoneSettledEvent {
  return {
    ...base('contract.milestone-settled', ctx),
    milestone: m.milestone,
    status: m.status,
    payment: toWire(m.payment),
    holds: holdsToWire(m.holds),
  };
}

export function contractCancelledEvent(
  ctx: EventContext,
  c: { status: CancelledStatus; reason: CancellationReason; holds: readonly HoldSplit[] },
): ContractCancelledEvent {
  return {
    ...base('contract.cancelled', ctx),
    status: c.status,
    reason: c.reason,
    holds: holdsToWire(c.holds),
  };
}

export function messageRejectedEvent(
  ctx: EventContext,
  r: { message: ContractMessage; code: string; field?: string },
): MessageRejectedEvent {
  if (!MACHINE_CODE_RE.test(r.code))
    throw new RangeError(`rejection code must be a machine code, got ${r.code}`);
  if (r.field !== undefined && !/^[A-Za-z0-9_.]{1,100}$/.test(r.field)) {
    throw new RangeError('rejection field must be a field path');
  }
  return {
    ...base('contract.message-rejected', ctx),
    message: r.message,
    code: r.code,
    ...optional('field', r.field),
  };
}
