// Every message of the contract workflow, its wire types, its input and its view.
// Sandbox-safe: imported by the workflow, the worker, the API and the tests alike.
//
// Wire conventions: amounts are decimal strings of minor units; times in views, events and message
// results are ISO-8601 UTC strings; the workflow input carries the rules' terms wire form
// (ContractTermsWire: deadlines as epoch ms). Every mutating message carries `caller`, the verified
// signer's lowercase address, set by the API from the signature.
//
// Each mutating message is BOTH a Signal and an Update of the same name over the same handler. The
// API always sends the Update (its validator answers at once); a Signal the rules reject changes
// nothing and is recorded as a `contract.message-rejected` event.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Address } from './rules/address';
import type { AwardMethod, ContractCode, ContractType, VerificationMode } from './rules/contract-kinds';
import type { ContractTermsWire } from './rules/contract-terms-wire';
import type { Criterion } from './rules/contract-terms';
import type { DeadlineKind } from './rules/deadlines';
import type { DifficultyLevel } from './rules/difficulty';
import type { AgentVerdict } from './rules/agent-verdicts';
import type { ContractEvent } from './rules/events';
import type { CriterionScore } from './rules/scoring/criteria';
import type { ProtocolParamsWire } from './rules/params';
import type { DeliveryEvidence } from './rules/scoring/evidence';
import type { CancellationReason, ContractStatus } from './rules/status';
import type { BondOutcome, RowVote } from './rules/tally';
import type { Verdict } from './rules/verdicts';

export const CONTRACT_WORKFLOW_TYPE = 'contractWorkflow';

/** `contract-<contractId>`: the business ID, so a second start of the same contract is refused. */
export function contractWorkflowId(contractId: string): string {
  return `contract-${contractId}`;
}

// ---------------------------------------------------------------------------------------------
// Failure types of a refused Update (ApplicationFailure.type); the API maps each to an HTTP status
// (api/errors/mapping.ts).

export const FailureType = {
  /** A field of the message is malformed. */
  BadInput: 'BadInput',
  /** The caller is not in the role the message needs. */
  Forbidden: 'Forbidden',
  /** Wrong state, lost race, or deadline passed. */
  Conflict: 'Conflict',
  /** The caller cannot fund the hold the message needs. */
  InsufficientFunds: 'InsufficientFunds',
  /** The contract does not exist (e.g. its escrow lock failed at creation). */
  NotFound: 'NotFound',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];
export const FAILURE_TYPES: readonly FailureType[] = Object.values(FailureType);

/** `details` of a refused message: a machine code (also the rejected event's code) and the field. */
export interface RejectionDetails {
  code: string;
  field?: string;
}

// ---------------------------------------------------------------------------------------------
// Input

/** A reference to encrypted content held elsewhere. Its decryption key lives in the API's vault. */
export interface ContentRef {
  uri: string;
  /** sha256 of the encrypted content, lowercase hex. */
  sha256: string;
}

/** WorkflowTerms on the wire: the validated terms (validateContractTerms → termsToWire) without any key. */
export type WorkflowTermsWire = Omit<ContractTermsWire, 'supplementaryMaterials'> & {
  supplementaryMaterials: ContentRef | null;
};

/**
 * A message a delegate key sent for its owner (docs/agents.md "Mandates"): the owner is the caller, the
 * party of record whose balance pays; the delegate is recorded as the key that acted; every hold the
 * message takes is committed under the mandate, whose limits the ledger checks in the hold's transaction.
 */
export interface Delegation {
  mandate: string;
  /** The delegate's lowercase address. */
  delegate: string;
}

export interface ContractInput {
  contractId: string;
  terms: WorkflowTermsWire;
  /** Set when a delegate created the contract for the Client: the escrow is committed under the mandate. */
  delegation?: Delegation;
  /** The parameter snapshot in force at creation (rules/params paramsToWire), used for the whole life. */
  params: ProtocolParamsWire;
}

/** Why a contract was never created: its escrow lock was refused (the `created` Update's failure code). */
export type EscrowRefusal = 'insufficient_funds' | 'escrow_refused' | MandateRefusalCode;

/** The codes of a hold its mandate refuses (a 403 to the delegate; nothing is held). */
export type MandateRefusalCode = 'mandate_exceeded' | 'mandate_expired' | 'mandate_revoked';
export const MANDATE_REFUSAL_CODES: readonly MandateRefusalCode[] = [
  'mandate_exceeded',
  'mandate_expired',
  'mandate_revoked',
];

/** What the workflow returns when it completes. */
export type ContractOutcome =
  | { created: true; status: ContractStatus; contractId: string }
  | { created: false; reason: EscrowRefusal; contractId: string };

// ---------------------------------------------------------------------------------------------
// The contract view (docs/api.md "Routes"): every field a party may see. The API derives the public view.

export interface DeliveryRef extends ContentRef {
  /** sha256 of the normalized content (api/ingest contentSha256). */
  contentHash: string;
  deliveredAt: string;
  /** 0 for the first delivery; n for a redelivery after the n-th change request (docs/protocol.md §7). */
  round: number;
}

export interface DeadlinesIso {
  match: string;
  withdrawal: string;
  delivery: string;
  review: string | null;
}

export interface ContractView {
  contractId: string;
  /** False until the escrow is held; stays false when the escrow lock failed (the API answers 404). */
  created: boolean;
  status: ContractStatus;
  contractCode: ContractCode;
  contractType: ContractType;
  awardMethod: AwardMethod;
  verificationMode: VerificationMode;
  /** Kinetix difficulty (docs/reputation.md §2), fixed at creation from the machine-checked criteria. */
  difficulty: DifficultyLevel;
  client: Address;
  /** The named Worker of a direct award, or the matched Worker; null while nobody is matched in a tender. */
  worker: Address | null;
  taskDescription: string;
  acceptanceCriteria: Criterion[];
  /** One verdict per criterion once final (resolved / settled), else null. */
  criteriaMet: Verdict[] | null;
  backupAgents: Address[];
  /** True while no full panel can be seated and the draw is retried (the recruitment window is open). */
  panelPending: boolean;
  /** True once the recruitment window passed without a panel: the operator's verdicts decide. */
  awaitingArbiter: boolean;
  /** After a panel's tally: the end of the appeal window (ISO), else null. */
  appealDeadline: string | null;
  /** The parties that may still appeal (or waive) now. */
  mayAppeal: Array<'client' | 'worker'>;
  /** Who appealed, once someone did. */
  appealedBy: 'client' | 'worker' | null;
  /** The fixed price (null for an auction until matched). */
  price: string | null;
  /** The auction's budget cap (null for a fixed-price contract). */
  budget: string | null;
  escrowedFunds: string;
  workerStake: string | null;
  disputeBond: string | null;
  /** The Worker's share of the escrow once settled, else null. */
  payment: string | null;
  deadlines: DeadlinesIso;
  nextDeadline: { kind: DeadlineKind; at: string } | null;
  createdAt: string;
  materials: ContentRef | null;
  delivery: DeliveryRef | null;
  cancellationReason: CancellationReason | null;
  paramsVersion: number;
  /** The snapshot's Worker Stake rate: what accepting or quoting locks (rules/holds workerStakeFor). */
  workerStakeBps: number;
  /** The snapshot's floor of every Worker Stake and bid bond. */
  minWorkerStake: string;
  /** The Client's claimed verdicts of its dispute (informational), else null. */
  disputeClaims: Verdict[] | null;
  /** The panel's voting window (docs/protocol.md §8) once drawn, else null. Votes stay sealed: see `votesQuery`. */
  voting: VotingView | null;
  /** Who may read which decryption key (docs/protocol.md §9), for the API's key release. */
  keyReaders: KeyReaders;
  /** The automatic verifier's scores of the machine-checkable criteria (docs/protocol.md §10); informs, never decides. */
  autoVerification: AutoVerificationView | null;
  /** Auctions: how many bidders hold a live quote (public, never the prices); null for a fixed price. */
  quoteCount: number | null;
  /** Auctions: the live quotes, one per bidder, in arrival order. For the Client only (the API strips it). */
  quotes: QuoteView[];
  /** Auctions: the matched quote, once matched. */
  winningQuoteId: string | null;
  /** Change requests the Client has made (docs/protocol.md §7). */
  revisionCount: number;
  /** The snapshot's bound on change requests. */
  maxRevisions: number;
  /** Every change request, oldest first, its note included: the Client and the Worker only (the API strips it). */
  revisions: RevisionView[];
  /**
   * The milestones (docs/protocol.md §6a), in order, each with its status; null for a contract without
   * them. The contract's `acceptanceCriteria`, `criteriaMet`, `delivery` and delivery/review deadlines are
   * the current milestone's, and `revisionCount` counts its change requests.
   */
  milestones: MilestoneView[] | null;
  /** The milestone being worked (0-based), the last one once the contract ended; null without milestones. */
  currentMilestone: number | null;
}

/** A milestone's status: `pending` until its turn, then the contract's while it is worked, then how it ended. */
export type MilestoneStatus = 'pending' | ContractStatus;

/** One milestone as the view shows it. */
export interface MilestoneView {
  index: number;
  title: string;
  shareBps: number;
  acceptanceCriteria: Criterion[];
  status: MilestoneStatus;
  /** Its amount of the price (floor(price × shareBps / 10000), the last the rest); null until an auction's price is known. */
  amount: string | null;
  /** Its deadlines (the current milestone's as change requests moved them). */
  deadlines: { delivery: string; review: string | null };
  criteriaMet: Verdict[] | null;
  /** What it paid the Worker once it ended, else null. */
  payment: string | null;
}

/** A change request as the parties see it; the deadlines are those it set. */
export interface RevisionView {
  requestedAt: string;
  /** Indices of the criteria the Client finds unmet. */
  criteria: number[];
  /** The Client's note to the Worker: party-only, never in an event. */
  note: string | null;
  deliveryDeadline: string;
  reviewDeadline: string;
}

/** The `agent.verified` of the automatic verifier, with what the event leaves out: scores and breakdowns. */
export interface AutoVerificationView {
  agentId: string;
  /** The delivery's sha256. */
  target: string;
  evaluatedAt: string;
  /** Over the checked criteria: all met → pass, any not met → fail, otherwise revise. */
  verdict: AgentVerdict;
  /** One per checked criterion, in criterion order. */
  results: CriterionScore[];
}

export interface VotingView {
  drawnAt: string;
  endsAt: string;
  /** True once the tally is in; the vote rows are readable from then on. */
  tallied: boolean;
}

/**
 * docs/protocol.md §9: materials → the matched Worker; delivery → the Client; both → the drawn BAs at the voting
 * stage (standard mode: as soon as the panel is drawn at delivery; privacy-preserving: only once the
 * Client disputed, which is when a panel is drawn at all).
 */
export interface KeyReaders {
  materials: Address[];
  delivery: Address[];
}

// ---------------------------------------------------------------------------------------------
// Message arguments

export interface CallerInput {
  /** The verified signer's address, lowercase; the owner's when a delegate signed for it. */
  caller: string;
  /** Set when a delegate signed for the caller under a mandate. */
  delegation?: Delegation;
}

export type AcceptInput = CallerInput;
export type DeclineInput = CallerInput;
export type CancelInput = CallerInput;
export type WithdrawInput = CallerInput;
export type ApproveInput = CallerInput;

/** The Client's dispute (privacy-preserving, before the Review Deadline); claims are informational. */
/** The Client or the Worker appeals a panel's tally (posting the Appeal Bond), or waives its appeal. */
export interface AppealInput extends CallerInput {
  waive?: boolean;
}

export interface DisputeInput extends CallerInput {
  /** One verdict per criterion, in criterion order. */
  claims?: Verdict[];
}

/** The Client's change request (privacy-preserving, under review, before the Review Deadline). */
export interface RequestChangesInput extends CallerInput {
  /** Indices of the criteria the Client finds unmet (at least one). */
  criteria: number[];
  /** To the Worker; content, so never in the event log, the public view or the search attributes. */
  note?: string;
}

/** A drawn Backup Agent's one combined call: a verdict per criterion; its baBond is taken with it. */
export interface VoteInput extends CallerInput {
  votes: Verdict[];
}

/** A bid on an auction (docs/protocol.md §5): a new quote from the same bidder replaces its earlier one. */
export interface QuoteInput extends CallerInput {
  /** Decimal string of minor units, at most the budget cap. */
  price: string;
  /** In [0, 1]; breaks price ties (a missing one ranks below any given). */
  confidence?: number;
  /** To the Client; content, so never in the event log or the search attributes. */
  message?: string;
}

/** The Client closes bidding early: with `quoteId` it picks that quote (owner pick), without it the best quote wins. */
export interface AwardInput extends CallerInput {
  quoteId?: string;
}

/** A live quote as the Client sees it (no one else does: the API strips `quotes` for every other caller). */
export interface QuoteView {
  quoteId: string;
  bidder: Address;
  price: string;
  confidence: number | null;
  message: string | null;
  submittedAt: string;
  /** The bid bond held for this quote: the Worker Stake for its price. */
  bidBond: string;
}

/** One vote row of docs/protocol.md §8: one per (contract, BA, criterion), a BA that never voted included. */
export interface VoteRowView {
  contractId: string;
  backupAgent: Address;
  criterionIndex: number;
  vote: RowVote;
  majorityOutcome: Verdict;
  bondOutcome: BondOutcome;
  /** OCT minor units minted for this row, decimal string. */
  reward: string;
}

/** Votes are sealed until the tally: before it, nothing about them (not even who voted) is answered. */
export type VotesResult = { sealed: true } | { sealed: false; rows: VoteRowView[] };

/** A delivery as ingested (api/ingest NormalizedDelivery) with its key removed (stored in the vault). */
export interface DeliverInput extends CallerInput {
  uri: string;
  sha256: string;
  /** api/ingest contentSha256 of the normalized content. */
  contentHash: string;
  confidence?: number;
  /** Machine-check evidence (docs/scoring.md §2), scored by the automatic verifier in standard mode. */
  evidence?: DeliveryEvidence;
}

// ---------------------------------------------------------------------------------------------
// What an Update answers (docs/security.md "Temporal budget"): a small receipt whose size does not
// grow with the quotes or the task description, because every answer is stored in the history. The
// API reads the view by query (queries write no history) when its route answers the view.

export interface MessageReceipt {
  contractId: string;
  status: ContractStatus;
  /** The workflow's change counter after the message. */
  revision: number;
  /** The matched Worker (accept, award), else null. */
  worker: Address | null;
  /** The Worker Stake once matched ("0" when it rounds to zero: nothing is held), else null. */
  workerStake: string | null;
  /** The drawn Backup Agents (deliver in standard mode, dispute), else empty. */
  backupAgents: Address[];
  /** A quote: the ID of the caller's live quote. */
  quoteId: string | null;
  /**
   * Every message but `quote` and `award`: the view after the change, without the fields the API
   * remembers per contract (docs/security.md §12). Absent on a quote's and an award's answer.
   */
  view?: AnsweredView;
}

/** The fields an answered view leaves out: fixed at creation, or (an auction's quotes) once bidding closed. */
export const UNANSWERED_VIEW_FIELDS = ['taskDescription', 'acceptanceCriteria', 'quotes'] as const;
type UnansweredField = (typeof UNANSWERED_VIEW_FIELDS)[number];

/** The view in an Update's answer: the left-out fields are null, so the others keep the view's key order. */
export type AnsweredView = Omit<ContractView, UnansweredField> & { [K in UnansweredField]: null };

// ---------------------------------------------------------------------------------------------
// Messages. Names are the wire names (rules/message-names CONTRACT_MESSAGES); Signal and Update share them.

/**
 * Update with start (docs/workflow.md): its handler waits for the escrow lock and returns the view, or
 * fails with InsufficientFunds, after which the workflow ends holding nothing.
 */
export const createdUpdate = defineUpdate<ContractView, []>('created');

export const acceptSignal = defineSignal<[AcceptInput]>('accept');
export const acceptUpdate = defineUpdate<MessageReceipt, [AcceptInput]>('accept');
export const declineSignal = defineSignal<[DeclineInput]>('decline');
export const declineUpdate = defineUpdate<MessageReceipt, [DeclineInput]>('decline');
export const cancelSignal = defineSignal<[CancelInput]>('cancel');
export const cancelUpdate = defineUpdate<MessageReceipt, [CancelInput]>('cancel');
export const withdrawSignal = defineSignal<[WithdrawInput]>('withdraw');
export const withdrawUpdate = defineUpdate<MessageReceipt, [WithdrawInput]>('withdraw');
export const deliverSignal = defineSignal<[DeliverInput]>('deliver');
export const deliverUpdate = defineUpdate<MessageReceipt, [DeliverInput]>('deliver');
export const approveSignal = defineSignal<[ApproveInput]>('approve');
export const approveUpdate = defineUpdate<MessageReceipt, [ApproveInput]>('approve');

export const appealSignal = defineSignal<[AppealInput]>('appeal');
export const appealUpdate = defineUpdate<MessageReceipt, [AppealInput]>('appeal');
export const disputeSignal = defineSignal<[DisputeInput]>('dispute');
export const disputeUpdate = defineUpdate<MessageReceipt, [DisputeInput]>('dispute');
export const requestChangesSignal = defineSignal<[RequestChangesInput]>('requestChanges');
export const requestChangesUpdate = defineUpdate<MessageReceipt, [RequestChangesInput]>('requestChanges');
export const voteSignal = defineSignal<[VoteInput]>('vote');
export const voteUpdate = defineUpdate<MessageReceipt, [VoteInput]>('vote');
/**
 * Seats may be free (docs/protocol.md §8 "Waiting for seats"): sent by the service to the first waiting
 * contract the registry can seat, when an agent locks stake or a panel's seats are released; the
 * contract draws again at once. Carries nothing: the draw reads the registry itself.
 */
export const seatsFreedSignal = defineSignal('seatsFreed');
export const quoteSignal = defineSignal<[QuoteInput]>('quote');
export const quoteUpdate = defineUpdate<MessageReceipt, [QuoteInput]>('quote');
export const awardSignal = defineSignal<[AwardInput]>('award');
export const awardUpdate = defineUpdate<MessageReceipt, [AwardInput]>('award');

export const contractQuery = defineQuery<ContractView>('contract');
export const eventsQuery = defineQuery<ContractEvent[]>('events');
/** The vote rows once tallied; `{ sealed: true }` while a drawn panel votes (the API answers 409); none without a panel. */
export const votesQuery = defineQuery<VotesResult>('votes');
/**
 * What the service reads of a contract to tell each agent its next action, in one query (every read is a task
 * for the contract's worker): the view, the event log, and the Backup Agents of the current panel whose ballot
 * is in (none before a draw). The API answers it to no caller — votes are sealed until the tally, and so is
 * who has voted.
 */
export interface ContractSnapshot {
  view: ContractView;
  events: ContractEvent[];
  ballotsCast: Address[];
}
export const snapshotQuery = defineQuery<ContractSnapshot>('snapshot');
