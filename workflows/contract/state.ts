// The state of one contract inside its workflow: terms, holds, status, the pending decision and the
// event log. Every status change goes through `transition`, which checks it against the rules and
// publishes the search attributes and current details.
import { ApplicationFailure, patched } from '@temporalio/workflow';
import type {
  AutoVerificationView,
  ContentRef,
  ContractInput,
  ContractView,
  DeliveryRef,
  EscrowRefusal,
  KeyReaders,
  VoteRowView,
} from '../definitions';
import { FailureType } from '../definitions';
import type { StuckStep } from '../operator-messages';
import type { Address } from '../rules/address';
import type { Quote } from '../rules/auction';
import { deadlinesToIso } from '../rules/contract-terms-wire';
import type { ContractTerms } from '../rules/contract-terms';
import { nextDeadline, type NextDeadline } from '../rules/deadlines';
import type { Actor, ContractEvent, OperatorAction, ResolutionSource } from '../rules/events';
import type { EventContext } from '../rules/event-constructors';
import { workerStakeFor, type ContractHold } from '../rules/holds';
import { fromWire, toWire } from '../rules/money';
import { paramsFromWire, type ProtocolParams } from '../rules/params';
import type { ContractHolds } from '../rules/settlement';
import {
  assertTransition,
  cancellationReasonOf,
  isTerminal,
  type CancellationReason,
  type ContractStatus,
} from '../rules/status';
import type { Verdict } from '../rules/verdicts';
import { BudgetSpent } from './budget-spent';
import { WorkflowLock } from './lock';
import { publish } from './observability';
import { PATCHES } from './patches';

/** The terms as the workflow keeps them (WorkflowTermsWire decoded): ContractTerms, the materials reduced to a key-less reference. */
export type WorkflowTerms = Omit<ContractTerms, 'supplementaryMaterials'> & {
  supplementaryMaterials: ContentRef | null;
};

/** What the main loop must carry out next; set by a message handler or a deadline. */
export type Decision =
  | { kind: 'cancel'; reason: CancellationReason; actor: Actor }
  | { kind: 'resolve'; source: ResolutionSource; criteriaMet: Verdict[]; actor: Actor };

export interface HeldFunds {
  amount: bigint;
  holdId: string;
}

/** The Worker Stake: no hold (holdId null) when it rounds to zero (docs/protocol.md). */
export interface StakeHold {
  amount: bigint;
  holdId: string | null;
}

/** True when `amount` needs no lock: it rounds to zero (docs/protocol.md "A stake that rounds to zero"). */
export function stakeIsNoHold(amount: bigint): boolean {
  return amount === 0n && patched(PATCHES.zeroStake);
}

/** The drawn Backup Agent panel and its voting window (SPEC §8). */
export interface Panel {
  members: Address[];
  drawnAt: number;
  votingEndsAt: number;
}

/** A BA's accepted combined call: its verdicts and its locked bond. Sealed until the tally. */
export interface Ballot {
  voter: Address;
  verdicts: Verdict[];
  bond: HeldFunds;
}

/** An auction quote as the workflow keeps it: the rules' Quote plus the bidder's message to the Client. */
export interface AuctionQuote extends Quote {
  message: string | null;
}

export interface OperatorState {
  stuck: StuckStep | null;
  action: OperatorAction | null;
  /** The operator chose `release`: the main loop releases every hold next. */
  releasing: boolean;
  /** Steps the main loop finished (the operator's Update answers after the next one). */
  completed: number;
}

export type EscrowState =
  | { state: 'pending' }
  | ({ state: 'held' } & HeldFunds)
  | { state: 'refused'; failureType: FailureType; reason: EscrowRefusal; message: string };

export class Contract {
  readonly contractId: string;
  readonly terms: WorkflowTerms;
  readonly params: ProtocolParams;
  readonly createdAt: number;

  escrow: EscrowState = { state: 'pending' };
  status: ContractStatus = 'created';
  worker: Address | null;
  stake: StakeHold | null = null;
  /** Issue 6: the Dispute Bond once the Client disputes. */
  disputeBond: HeldFunds | null = null;
  /** Set when a panel must be drawn (a standard delivery, a dispute); the main loop draws it. */
  panelDue = false;
  panel: Panel | null = null;
  readonly ballots: Ballot[] = [];
  /** BAs whose accepted vote is still locking its bond: they called in time, the tally waits for them. */
  readonly votesInFlight: Address[] = [];
  /** True while a dispute is locking its bond: approve, a second dispute and the review timeout wait. */
  disputing = false;
  disputeClaims: Verdict[] | null = null;
  /** The vote rows, once tallied (sealed until then). */
  voteRows: VoteRowView[] | null = null;
  delivery: (ContentRef & { contentHash: string; deliveredAt: number }) | null = null;
  criteriaMet: Verdict[] | null = null;
  /** The automatic verifier's result (auto-verifier.ts), once the delivery is scored. */
  autoVerification: AutoVerificationView | null = null;
  payment: bigint | null = null;
  decision: Decision | null = null;
  /** Bumped on every change the main loop must react to. */
  revision = 0;
  readonly events: ContractEvent[] = [];
  /** What observability.publish last sent, so an unchanged view is not upserted again. */
  publishedKey = '';
  /** Set once at the start (lean-history.ts): the history-saving commands are used. */
  lean = false;
  /** Lean: a change not yet published (observability.ts); wakes the main loop. */
  unpublished = false;
  /** Serializes the messages that race for the match (accept, decline, cancel, award) and the Match Deadline. */
  readonly matchLock = new WorkflowLock();
  /** Auctions (bidding.ts): the live quotes, one per bidder, in arrival order. */
  readonly quotes: AuctionQuote[] = [];
  /** Auctions: quotes received so far (replacements included); numbers the quote IDs. */
  quoteSequence = 0;
  /** Auctions: true while a close of bidding is matching (quotes and a second award are refused). */
  biddingClosed = false;
  /** Auctions: the matched quote. */
  winningQuote: AuctionQuote | null = null;
  /** Auctions: the bidders other than the Worker, fixed at the match; the draw seats the eligible ones first. */
  bidderPool: Address[] = [];
  /** What non-parties have spent of the run's Temporal budget (budget.ts, rules/budget). */
  readonly spent = new BudgetSpent();
  /** The draw secret (draw-secret.ts): never in the view, a query or an event until the draw reveals it. */
  drawSecret: string | null = null;
  /** A step waiting for the operator, the operator's pending action, and steps done (needs-operator.ts). */
  readonly operator: OperatorState = { stuck: null, action: null, releasing: false, completed: 0 };

  constructor(input: ContractInput, now: number) {
    try {
      this.params = paramsFromWire(input.params);
      this.terms = { ...input.terms, amount: fromWire(input.terms.amount) };
    } catch (error) {
      throw ApplicationFailure.nonRetryable(
        `invalid contract input: ${(error as Error).message}`,
        FailureType.BadInput,
      );
    }
    this.contractId = input.contractId;
    this.worker = this.terms.worker;
    this.createdAt = now;
  }

  get created(): boolean {
    return this.escrow.state === 'held';
  }

  get terminal(): boolean {
    return isTerminal(this.status);
  }

  /** A fixed contract's price; an auction's winning price once matched. */
  get price(): bigint | null {
    return this.terms.contractType === 'fixed' ? this.terms.amount : (this.winningQuote?.price ?? null);
  }

  /** What the escrow holds: the price or budget cap, and an auction's winning price after the match refund. */
  get escrowedFunds(): bigint {
    return this.escrow.state === 'held' ? this.escrow.amount : this.terms.amount;
  }

  /** Worker Stake for the price (rules/holds). */
  stakeAmount(): bigint {
    const price = this.price;
    if (price === null) throw new RangeError('no price to stake on before the match');
    return workerStakeFor(price, this.params);
  }

  holds(): ContractHolds {
    if (this.escrow.state !== 'held') throw new RangeError('no escrow is held');
    return {
      escrow: this.escrow.amount,
      workerStake: this.stake?.amount ?? null,
      disputeBond: this.disputeBond?.amount ?? null,
    };
  }

  holdId(kind: ContractHold): string {
    const held = {
      escrow: this.escrow.state === 'held' ? this.escrow : null,
      workerStake: this.stake,
      disputeBond: this.disputeBond,
    }[kind];
    if (held === null || held.holdId === null) throw new RangeError(`no ${kind} hold`);
    return held.holdId;
  }

  nextDeadline(now: number): NextDeadline | null {
    return nextDeadline(
      {
        status: this.status,
        verificationMode: this.terms.verificationMode,
        deadlines: this.terms.deadlines,
        votingEndsAt: this.panel?.votingEndsAt ?? null,
      },
      now,
    );
  }

  /** Workflow code: Date.now() is the deterministic workflow time. */
  eventContext(actor: Actor): EventContext {
    return { contractId: this.contractId, at: Date.now(), actor };
  }

  record(event: ContractEvent): void {
    this.events.push(event);
  }

  transition(to: ContractStatus): void {
    assertTransition(this.status, to);
    this.status = to;
    this.revision++;
    publish(this);
  }

  decide(decision: Decision): void {
    if (this.decision !== null) throw new RangeError('a decision is already pending');
    this.decision = decision;
    this.revision++;
  }

  view(): ContractView {
    const next = this.created ? this.nextDeadline(Date.now()) : null;
    const price = this.price;
    const delivery: DeliveryRef | null =
      this.delivery === null
        ? null
        : {
            uri: this.delivery.uri,
            sha256: this.delivery.sha256,
            contentHash: this.delivery.contentHash,
            deliveredAt: new Date(this.delivery.deliveredAt).toISOString(),
          };
    const deadlines = deadlinesToIso(this.terms.deadlines);
    return {
      contractId: this.contractId,
      created: this.created,
      status: this.status,
      contractCode: this.terms.code,
      contractType: this.terms.contractType,
      awardMethod: this.terms.awardMethod,
      verificationMode: this.terms.verificationMode,
      client: this.terms.client,
      worker: this.worker,
      taskDescription: this.terms.taskDescription,
      acceptanceCriteria: this.terms.acceptanceCriteria,
      criteriaMet: this.criteriaMet,
      backupAgents: this.panel?.members ?? [],
      price: price === null ? null : toWire(price),
      budget: this.terms.contractType === 'auction' ? toWire(this.terms.amount) : null,
      escrowedFunds: toWire(this.escrowedFunds),
      workerStake: this.stake === null ? null : toWire(this.stake.amount),
      disputeBond: this.disputeBond === null ? null : toWire(this.disputeBond.amount),
      payment: this.payment === null ? null : toWire(this.payment),
      deadlines: {
        match: deadlines.match!,
        withdrawal: deadlines.withdrawal!,
        delivery: deadlines.delivery!,
        review: deadlines.review,
      },
      nextDeadline: next === null ? null : { kind: next.kind, at: new Date(next.at).toISOString() },
      createdAt: new Date(this.createdAt).toISOString(),
      materials: this.terms.supplementaryMaterials,
      delivery,
      cancellationReason: cancellationReasonOf(this.status),
      paramsVersion: this.params.version,
      workerStakeBps: this.params.workerStakeBps,
      disputeClaims: this.disputeClaims,
      voting:
        this.panel === null
          ? null
          : {
              drawnAt: new Date(this.panel.drawnAt).toISOString(),
              endsAt: new Date(this.panel.votingEndsAt).toISOString(),
              tallied: this.voteRows !== null,
            },
      keyReaders: this.keyReaders(),
      autoVerification: this.autoVerification,
      quoteCount: this.terms.contractType === 'auction' ? this.quotes.length : null,
      quotes: this.quotes.map((q) => ({
        quoteId: q.quoteId,
        bidder: q.bidder,
        price: toWire(q.price),
        confidence: q.confidence ?? null,
        message: q.message,
        submittedAt: new Date(q.submittedAt).toISOString(),
      })),
      winningQuoteId: this.winningQuote?.quoteId ?? null,
    };
  }

  /** SPEC §9: a panel exists only at the voting stage (standard) or after a dispute (privacy-preserving). */
  keyReaders(): KeyReaders {
    const panel = this.panel?.members ?? [];
    const worker = this.stake !== null && this.worker !== null ? [this.worker] : [];
    return {
      materials: [...worker, ...panel],
      // The Client may always ask (nothing delivered yet → the API answers 404 for the missing key).
      delivery: [this.terms.client, ...panel],
    };
  }
}
