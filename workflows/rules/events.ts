// The content-free contract event log (SPEC §13). An event says what happened, who did it and when,
// with hashes and amounts; never task text, criteria text, delivery content, evidence or keys.
// Verdicts use seed 004_…'s `agent.verified` shape; the resolution is its terminate decision with
// `successCriteria`. Constructors copy only the fields they name, so nothing else can slip in.
// The JSON Schema of these shapes is in ./events-schema.
import type { Address } from './address';
import type { ContractCode, ContractType, AwardMethod, VerificationMode } from './contract-terms';
import type { DrawRecord } from './draw';
import type { HoldSplit, ContractHold, HoldParty } from './holds';
import { toWire } from './money';
import { CANONICAL_SHA256_RE } from './sha256';
import type { CancellationReason, CancelledStatus, SettledStatus, SettlementTier } from './status';
import type { Verdict } from './verdicts';

// ---------------------------------------------------------------------------------------------
// Criterion keys

export const MAX_CRITERION_KEYS = 10;

/** The content-free name of a criterion: `c1` … `c10` for 0-based indexes 0 … 9. */
export function criterionKey(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_CRITERION_KEYS) {
    throw new RangeError(
      `criterion index must be an integer in [0, ${MAX_CRITERION_KEYS - 1}], got ${index}`,
    );
  }
  return `c${index + 1}`;
}

export function criterionKeys(count: number): string[] {
  return Array.from({ length: count }, (_, i) => criterionKey(i));
}

/** The 0-based index of a key (`c3` → 2); throws on anything that is not a key. */
export function criterionIndexOfKey(key: string): number {
  const m = /^c([1-9]|10)$/.exec(key);
  if (!m) throw new RangeError(`not a criterion key (c1 … c10): ${JSON.stringify(key)}`);
  return Number(m[1]) - 1;
}

// ---------------------------------------------------------------------------------------------
// Verdicts

export type AgentVerdict = 'pass' | 'fail' | 'revise';

/**
 * Per-criterion verdicts → one agent.verified verdict: every criterion met → `pass`; any not met →
 * `fail`; otherwise (some unclear, none not met) → `revise`. With this mapping a binding `fail` means
 * `met < resolved`, which SPEC §7a never pays in full.
 */
export function agentVerdictFor(verdicts: readonly Verdict[]): AgentVerdict {
  if (verdicts.length === 0) throw new RangeError('a verdict needs at least one criterion verdict');
  if (verdicts.every((v) => v === 'met')) return 'pass';
  return verdicts.includes('not met') ? 'fail' : 'revise';
}

/**
 * The Client's review as per-criterion verdicts for its agent.verified event: an approval (or the
 * Review Deadline passing) is every criterion met; a dispute is its claims, or — when it makes none —
 * every criterion contested (`not met`), so a claimless dispute is a `fail`.
 */
export function clientReviewVerdicts(
  criteriaCount: number,
  review: { approved: true } | { approved: false; claims?: readonly Verdict[] },
): Verdict[] {
  if (review.approved) return Array.from({ length: criteriaCount }, () => 'met' as const);
  if (review.claims === undefined) return Array.from({ length: criteriaCount }, () => 'not met' as const);
  if (review.claims.length !== criteriaCount) {
    throw new RangeError(
      `claims must have one verdict per criterion (${criteriaCount}), got ${review.claims.length}`,
    );
  }
  return [...review.claims];
}

// ---------------------------------------------------------------------------------------------
// Event shapes

/** An agent's address, the service's own timers and rules (`system`), or the automatic checker. */
export type Actor = Address | 'system' | 'auto-verifier' | 'operator';

/** The agentId of the automatic machine-check verifier in agent.verified events. */
export const AUTO_VERIFIER_AGENT_ID = 'opencontract:auto-verifier';

export interface EventBase<T extends string> {
  type: T;
  contractId: string;
  /** ISO-8601 UTC, milliseconds. */
  at: string;
  actor: Actor;
}

export interface HoldSplitWire {
  hold: ContractHold;
  amount: string;
  parts: { role: HoldParty; amount: string }[];
}

export interface ContractCreatedEvent extends EventBase<'contract.created'> {
  contractCode: ContractCode;
  contractType: ContractType;
  awardMethod: AwardMethod;
  verificationMode: VerificationMode;
  /** The named Worker of a direct award. */
  worker?: Address;
  /** Price (fixed) or budget cap (auction): the Escrowed Funds, decimal string. */
  amount: string;
  criteria: string[];
  /** Keys of the criteria that carry a machine check. */
  checkedCriteria: string[];
  deadlines: { match: string; withdrawal: string; delivery: string; review?: string };
  /** sha256 of the encrypted Supplementary Materials, when there are any. */
  materialsSha256?: string;
  /** sha256 of the contract's draw secret (rules/draw drawCommitment), revealed in contract.panel-drawn. */
  drawCommitment?: string;
}

/** A bid arrived. Its price stays sealed: it is not in the log. */
export interface QuoteReceivedEvent extends EventBase<'contract.quote-received'> {
  quoteId: string;
  confidence?: number;
}

export type MatchedVia = 'accept' | 'best-quote' | 'owner-pick';

export interface ContractMatchedEvent extends EventBase<'contract.matched'> {
  worker: Address;
  via: MatchedVia;
  quoteId?: string;
  price: string;
  workerStake: string;
  /** Auction escrow above the winning price, refunded to the Client at match. */
  refundedToClient?: string;
}

export type ContractWithdrawnEvent = EventBase<'contract.withdrawn'>;

export interface ContractDeliveredEvent extends EventBase<'contract.delivered'> {
  /** sha256 of the encrypted delivery (the reference's hash). */
  deliverySha256: string;
  /** sha256 of the normalized content as stored (encrypted) with the delivery. */
  contentSha256: string;
  /** Keys of the criteria the delivery carries evidence for. */
  evidenceCriteria: string[];
}

export type VerifierRole = 'backup-agent' | 'client' | 'auto-verifier';

/** Seed 004_…'s agentVerified: content-free, keys only, never per-criterion verdict text. */
export interface AgentVerifiedEvent extends EventBase<'agent.verified'> {
  agentId: string;
  /** What was checked: the delivery's sha256. */
  target: string;
  verdict: AgentVerdict;
  criteria: string[];
  confidence?: number;
  role: VerifierRole;
}

export interface ContractDisputedEvent extends EventBase<'contract.disputed'> {
  disputeBond: string;
}

/** Everything needed to recompute the draw (workflows/rules/draw.ts drawFromCandidates). */
export interface PanelDrawnEvent extends EventBase<'contract.panel-drawn'> {
  deliverySha256: string;
  /** The draw secret committed in contract.created, revealed; absent for contracts created before it. */
  secret?: string;
  seed: string;
  panelSize: number;
  priorityCandidates: Address[];
  registryCandidates: Address[];
  panel: Address[];
  votingDeadline: string;
}

export type ResolutionSource = 'client-approval' | 'review-timeout' | 'panel-tally';

/** Seed 004_…'s terminate decision: one `{ key, met }` per acceptance criterion. */
export interface ContractResolvedEvent extends EventBase<'contract.resolved'> {
  decision: 'terminate';
  source: ResolutionSource;
  /** The binding verdict, derived from Criteria Met (agentVerdictFor). */
  verdict: AgentVerdict;
  successCriteria: { key: string; met: boolean }[];
  /** Keys whose outcome is `unclear` (met: false, but not counted against the Worker). */
  unclear: string[];
}

export interface ContractSettledEvent extends EventBase<'contract.settled'> {
  status: SettledStatus;
  tier: SettlementTier;
  payment: string;
  holds: HoldSplitWire[];
}

export interface ContractCancelledEvent extends EventBase<'contract.cancelled'> {
  status: CancelledStatus;
  reason: CancellationReason;
  holds: HoldSplitWire[];
}

export const CONTRACT_MESSAGES = [
  'accept',
  'decline',
  'quote',
  'award',
  'cancel',
  'withdraw',
  'deliver',
  'approve',
  'dispute',
  'vote',
] as const;
export type ContractMessage = (typeof CONTRACT_MESSAGES)[number];

/** A message the rules refused (SPEC §12): which message, who sent it (actor), why (a machine code). */
export interface MessageRejectedEvent extends EventBase<'contract.message-rejected'> {
  message: ContractMessage;
  /** A machine code such as `wrong_state`, `late`, `not_on_panel`: never free text. */
  code: string;
  /** The offending field's name, when the rejection is about one. */
  field?: string;
}

/**
 * A money step the ledger refused for good (a non-retryable activity failure): the contract waits for
 * the operator (docs/operations.md). Content-free: the step and the failure's type only.
 */
export interface NeedsOperatorEvent extends EventBase<'contract.needs-operator'> {
  step: string;
  failureType: string;
}

export type OperatorAction = 'retry' | 'release';

/** The operator's resolution of a contract waiting for it. */
export interface OperatorResolvedEvent extends EventBase<'contract.operator-resolved'> {
  action: OperatorAction;
}

export type ContractEvent =
  | ContractCreatedEvent
  | NeedsOperatorEvent
  | OperatorResolvedEvent
  | QuoteReceivedEvent
  | ContractMatchedEvent
  | ContractWithdrawnEvent
  | ContractDeliveredEvent
  | AgentVerifiedEvent
  | ContractDisputedEvent
  | PanelDrawnEvent
  | ContractResolvedEvent
  | ContractSettledEvent
  | ContractCancelledEvent
  | MessageRejectedEvent;
export type ContractEventType = ContractEvent['type'];

// ---------------------------------------------------------------------------------------------
// Constructors

export interface EventContext {
  contractId: string;
  /** Epoch milliseconds or an ISO-8601 instant. */
  at: number | string;
  actor: Actor;
}

export const MACHINE_CODE_RE = /^[a-z][a-z0-9_-]{0,63}$/;

function isoAt(at: number | string): string {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new RangeError(`event time must be a valid instant, got ${String(at)}`);
  return new Date(ms).toISOString();
}

function base<T extends ContractEventType>(type: T, ctx: EventContext): EventBase<T> {
  if (ctx.contractId === '') throw new RangeError('contractId must not be empty');
  return { type, contractId: ctx.contractId, at: isoAt(ctx.at), actor: ctx.actor };
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
    priorityCandidates: [...draw.priorityCandidates],
    registryCandidates: [...draw.registryCandidates],
    panel: [...draw.panel],
    votingDeadline: isoAt(votingDeadline),
  };
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

// ---------------------------------------------------------------------------------------------
// Rules over an event log

export interface EventLogViolation {
  /** Index of the offending event in the list. */
  index: number;
  message: string;
}

/** The Worker got the whole escrow. */
export function isFullPayment(e: ContractSettledEvent): boolean {
  const escrow = e.holds.find((h) => h.hold === 'escrow');
  return (
    e.tier === 'fully-met' || (escrow !== undefined && escrow.amount !== '0' && e.payment === escrow.amount)
  );
}

/**
 * SPEC §13: a `fail` verdict that is the binding outcome (the resolution) must never be followed by
 * a full payment. Also flags a resolution whose verdict disagrees with its own successCriteria.
 */
export function findFullPaymentAfterBindingFail(events: readonly ContractEvent[]): EventLogViolation[] {
  const violations: EventLogViolation[] = [];
  let binding: { verdict: AgentVerdict; index: number } | null = null;
  events.forEach((e, index) => {
    if (e.type === 'contract.resolved') {
      const unclear = new Set(e.unclear);
      const derived = agentVerdictFor(
        e.successCriteria.map((c): Verdict => (c.met ? 'met' : unclear.has(c.key) ? 'unclear' : 'not met')),
      );
      if (derived !== e.verdict) {
        violations.push({
          index,
          message: `resolution verdict ${e.verdict} but its criteria give ${derived}`,
        });
      }
      binding = { verdict: derived, index };
    }
    if (e.type === 'contract.settled' && binding?.verdict === 'fail' && isFullPayment(e)) {
      violations.push({
        index,
        message: `full payment after the binding fail verdict at event ${binding.index}`,
      });
    }
  });
  return violations;
}

export function assertNoFullPaymentAfterBindingFail(events: readonly ContractEvent[]): void {
  const violations = findFullPaymentAfterBindingFail(events);
  if (violations.length > 0) {
    throw new Error(
      `event log breaks SPEC §13: ${violations.map((v) => `#${v.index} ${v.message}`).join('; ')}`,
    );
  }
}
