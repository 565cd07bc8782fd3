// The content-free contract event log (docs/scoring.md §6): the shape of each event. An event says what
// happened, who did it and when, with hashes and amounts; never task text, criteria text, delivery
// content, evidence or keys. Verdicts use the `agent.verified` shape; the resolution is its
// terminate decision with `successCriteria`. Built by ./event-constructors; the JSON Schema of these
// shapes is in ./events-schema.
import type { DrawRound } from './draw';
import type { Address } from './address';
import type { AgentVerdict } from './agent-verdicts';
import type { ContractCode, ContractType, AwardMethod, VerificationMode } from './contract-kinds';
import type { ContractHold, HoldParty } from './holds';
import type { ContractMessage } from './message-names';
import type { CancellationReason, CancelledStatus, SettledStatus, SettlementTier } from './status';

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
  /** Present when a delegate key acted for `actor` under a mandate: the key that signed the message. */
  delegate?: string;
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

export type VerifierRole = 'backup-agent' | 'client' | 'auto-verifier' | 'trusted-arbiter';

/** The agent.verified event shape: agentVerified: content-free, keys only, never per-criterion verdict text. */
export interface AgentVerifiedEvent extends EventBase<'agent.verified'> {
  agentId: string;
  /** What was checked: the delivery's sha256. */
  target: string;
  verdict: AgentVerdict;
  criteria: string[];
  confidence?: number;
  role: VerifierRole;
}

/** The Client or the Worker appealed a panel's tally (`appealBond` held) or waived its appeal. */
export interface ContractAppealEvent extends EventBase<'contract.appealed' | 'contract.appeal-waived'> {
  party: 'client' | 'worker';
  /** The Appeal Bond held; absent on a waiver. */
  appealBond?: string;
}

export interface ContractDisputedEvent extends EventBase<'contract.disputed'> {
  disputeBond: string;
}

/** Everything needed to recompute the draw (workflows/rules/draw.ts drawFromCandidates). */
export interface PanelDrawnEvent extends EventBase<'contract.panel-drawn'> {
  deliverySha256: string;
  /** `panel` for the first panel, `appeal` for the appeal panel. */
  round: DrawRound;
  /** The round's draw secret, revealed (rules/draw roundSecret says how it is checked). */
  secret?: string;
  seed: string;
  panelSize: number;
  /** Every drawable agent at the draw with its free eligibility stake (decimal string), by address. */
  candidates: Array<{ address: Address; stake: string }>;
  panel: Address[];
  votingDeadline: string;
}

/**
 * Silence decides nothing: fewer than a majority of the panel voted by the end of its window, so the
 * round is void. The silent members lost their seats' slices and are never drawn again for the
 * contract; a new panel is drawn (or, past the recruitment window, the trusted arbiter decides).
 */
export interface PanelVoidedEvent extends EventBase<'contract.panel-voided'> {
  panel: Address[];
  silent: Address[];
}

export type ResolutionSource = 'client-approval' | 'review-timeout' | 'panel-tally' | 'trusted-arbiter';

/** The agent.verified event shape: terminate decision: one `{ key, met }` per acceptance criterion. */
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

/**
 * One milestone ended (docs/protocol.md §6a) in its own ledger batch: settled by its Criteria Met, or
 * `cancelled-absent` (nothing delivered for it; every later milestone ends with it). The contract's own
 * `contract.settled` / `contract.cancelled` follows the last one.
 */
export interface MilestoneSettledEvent extends EventBase<'contract.milestone-settled'> {
  /** 0-based. */
  milestone: number;
  status: SettledStatus | 'cancelled-absent';
  payment: string;
  holds: HoldSplitWire[];
}

export interface ContractCancelledEvent extends EventBase<'contract.cancelled'> {
  status: CancelledStatus;
  reason: CancellationReason;
  holds: HoldSplitWire[];
}

/** A message the rules refused (docs/api.md): which message, who sent it (actor), why (a machine code). */
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
  | ContractAppealEvent
  | PanelDrawnEvent
  | PanelVoidedEvent
  | ContractResolvedEvent
  | ContractSettledEvent
  | MilestoneSettledEvent
  | ContractCancelledEvent
  | MessageRejectedEvent;
export type ContractEventType = ContractEvent['type'];
