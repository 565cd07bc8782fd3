// The state of one contract inside its workflow: terms, holds, status, the pending decision and the
// event log. Read-only to every other module (the Contract type); each change is a named mutator here,
// which wakes the main loop and publishes where the change calls for it (docs/workflow.md "State protocol").
// Every status change goes through `transition`, which checks it against the rules' transition table.
import { ApplicationFailure } from '@temporalio/workflow';
import type {
  AutoVerificationView,
  ContentRef,
  ContractInput,
  Delegation,
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
import { nextDeadline, type Deadlines, type NextDeadline } from '../rules/deadlines';
import { contractDifficulty, type DifficultyLevel } from '../rules/difficulty';
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
import type { Recruitment } from '../rules/recruitment';
import { mayStillAppeal, type AppealParty, type AppealState } from '../rules/appeal';
import type { Verdict } from '../rules/verdicts';
import { BudgetSpent } from './budget-spent';
import { delegationOf } from './delegation';
import { WorkflowLock } from './lock';
import { publish, publishNow, type Publication } from './observability';

/** The terms as the workflow keeps them (WorkflowTermsWire decoded): ContractTerms, the materials reduced to a key-less reference. */
export type WorkflowTerms = Omit<ContractTerms, 'supplementaryMaterials'> & {
  supplementaryMaterials: ContentRef | null;
};

/** What the main loop must carry out next; set by a message handler or a deadline. */
export type Decision =
  | { kind: 'cancel'; reason: CancellationReason; actor: Actor; delegation?: Delegation | null }
  | {
      kind: 'resolve';
      source: ResolutionSource;
      criteriaMet: Verdict[];
      actor: Actor;
      delegation?: Delegation | null;
    };

export interface HeldFunds {
  amount: bigint;
  holdId: string;
}

/** The Worker Stake: always a hold (minWorkerStake floors it; an auction's is the winner's bid bond). */
export type StakeHold = HeldFunds;

/** The delivery as the workflow keeps it: the key-less reference, the content hash, when. */
export type Delivery = ContentRef & { contentHash: string; deliveredAt: number; round: number };

/** The read model's bookkeeping, kept on the contract and changed only by read-model.ts. */
export interface ReadModelWrites {
  /** The state the last write carried (unchanged: no write). */
  key: string;
  /** The last version handed out. */
  version: number;
  /** The highest version the store answered, and how many events it then held. */
  confirmed: { version: number; events: number };
}

/** A change request (docs/protocol.md §7) and the deadlines it set. */
export interface Revision {
  requestedAt: number;
  criteria: number[];
  note: string | null;
  deliveryDeadline: number;
  reviewDeadline: number;
}

/** The drawn Backup Agent panel and its voting window (docs/protocol.md §8). */
export interface Panel {
  members: Address[];
  drawnAt: number;
  votingEndsAt: number;
  /** Void rounds before this panel was drawn: numbers its seats' holds (rules/seats seatHoldId). */
  voidRounds: number;
}

/** A panel fee held (rules/panel-fee) and who paid it: returned to it when no panel decides. */
export interface HeldFee extends HeldFunds {
  payer: Address;
}

/** A BA's accepted combined call: its verdicts, staking its seat's hold. Sealed until the tally. */
export interface Ballot {
  voter: Address;
  verdicts: Verdict[];
}

/** An auction quote as the workflow keeps it: the rules' Quote plus the bidder's message to the Client. */
export interface AuctionQuote extends Quote {
  message: string | null;
  /** The bid bond held for this quote (bid-bond.ts): the Worker Stake for its price. */
  bond: HeldFunds;
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

/** What a failed step of the main loop may have changed before its money moved (needs-operator.ts). */
export interface Snapshot {
  status: ContractStatus;
  events: number;
  criteriaMet: Verdict[] | null;
  voteRows: VoteRowView[] | null;
  payment: bigint | null;
}

/** The read model's bookkeeping (read-model.ts), kept on the contract and changed only there. */
export interface ReadModelWrites {
  /** The state the last write carried (unchanged: no write). */
  key: string;
  /** The last version handed out. */
  version: number;
  /** The highest version the store answered, and how many events it then held. */
  confirmed: { version: number; events: number };
}

/** Arrays read-only too: the outside reads a list, it never pushes to it. */
type ReadOnlyField<V> = V extends readonly (infer E)[] ? readonly E[] : V;

/**
 * The contract as every other module sees it: each field read-only, each change through a named
 * mutator of ContractState, which wakes the main loop and publishes where the change calls for it.
 */
export type Contract = { readonly [K in keyof ContractState]: ReadOnlyField<ContractState[K]> };

/** A new contract's state. */
export function newContract(input: ContractInput, now: number): Contract {
  return new ContractState(input, now);
}

// The fields are public for the Contract view above; only this class assigns them. `wake` (the main
// loop waits on `revision`) and `publish` (observability.ts) are called exactly where the commands of
// the saved histories have them: a wake or an upsert more would change a replayed history.
class ContractState {
  readonly contractId: string;
  /** The mandate a delegate created the contract under (its escrow is committed there), if one did. */
  readonly creation: Delegation | null;
  readonly terms: WorkflowTerms;
  readonly params: ProtocolParams;
  readonly createdAt: number;
  /** Kinetix difficulty, fixed at creation (rules/difficulty). */
  readonly difficulty: DifficultyLevel;

  escrow: EscrowState = { state: 'pending' };
  status: ContractStatus = 'created';
  worker: Address | null;
  stake: StakeHold | null = null;
  /** The Dispute Bond once the Client disputes. */
  disputeBond: HeldFunds | null = null;
  /** Set when a panel must be drawn (a standard delivery, a dispute); the main loop draws it. */
  panelDue = false;
  panel: Panel | null = null;
  /** Once no full panel could be seated: the retry timer, then the trusted arbiter (rules/recruitment). Kept after a later draw seats one. */
  recruitment: Recruitment | null = null;
  ballots: Ballot[] = [];
  /** After a panel's tally: the appeal window and who appealed or waived (rules/appeal), and the first outcome. */
  appeal: (AppealState & { firstOutcome: Verdict[] }) | null = null;
  /** The first panel and its ballots once an appeal is drawn (`panel` and `ballots` then hold the appeal's). */
  firstPanel: { members: Address[]; ballots: Ballot[]; voidRounds: number } | null = null;
  /** The panel fee of each round once held: the first panel's (its redraws share it) and the appeal's. */
  panelFees: { panel: HeldFee | null; appeal: HeldFee | null } = { panel: null, appeal: null };
  /** When the panel now due was asked for (the standard delivery, the dispute, the appeal): the recruitment window runs from it. */
  panelAskedAt: number | null = null;
  /** Backup Agents silent in a void round: never drawn again for this contract. */
  silent: Address[] = [];
  /** Void rounds so far (silence decides nothing): numbers the seats of every later panel. */
  voidRounds = 0;
  /** The Appeal Bond, once a party appealed (no hold when it rounds to zero). */
  appealBond: (HeldFunds & { party: AppealParty }) | null = null;
  /** True while an appeal is locking its bond: the appeal deadline waits for it. */
  appealing = false;
  /** True while a dispute is locking its bond: approve, a second dispute and the review timeout wait. */
  disputing = false;
  disputeClaims: Verdict[] | null = null;
  /** The vote rows, once tallied (sealed until then). */
  voteRows: VoteRowView[] | null = null;
  delivery: Delivery | null = null;
  /** The deadlines in force: the terms', the delivery and review ones moved by change requests. */
  deadlines: Readonly<Deadlines>;
  /** The Client's change requests, oldest first. */
  revisions: Revision[] = [];
  criteriaMet: Verdict[] | null = null;
  /** The Client sent the delivery back (the deadlines move as the request says): `matched` again. */
  changesRequested(revision: Revision): void {
    this.revisions.push(revision);
    this.deadlines = {
      ...this.deadlines,
      delivery: revision.deliveryDeadline,
      review: revision.reviewDeadline,
    };
    this.transition('matched');
  }

  /** No redelivery by the moved delivery deadline: the last delivery stands, the review resumes. */
  deliveryStands(): void {
    this.transition('under-review');
  }

  /** The automatic verifier's result (auto-verifier.ts), once the delivery is scored. */
  autoVerification: AutoVerificationView | null = null;
  payment: bigint | null = null;
  decision: Decision | null = null;
  /** Bumped (wake) on every change the main loop must react to; the Update receipts show it. */
  revision = 0;
  events: ContractEvent[] = [];
  /** What observability.publish last sent and whether a change waits to be published. */
  readonly publication: Publication = { key: '', pending: false };
  /** What the read model was last written with (read-model.ts). */
  readonly readModel: ReadModelWrites = { key: '', version: 0, confirmed: { version: 0, events: 0 } };
  /** Serializes the messages that race for the match (accept, decline, cancel, award) and the Match Deadline. */
  readonly matchLock = new WorkflowLock();
  /** Auctions (bidding.ts): the live quotes, one per bidder, in arrival order. */
  quotes: AuctionQuote[] = [];
  private bondSteps = 0;
  /** Auctions: quotes received so far (replacements included); numbers the quote IDs. */
  quoteSequence = 0;
  /** Auctions: true while a close of bidding is matching (quotes and a second award are refused). */
  biddingClosed = false;
  /** Auctions: the matched quote. */
  winningQuote: AuctionQuote | null = null;
  /** Auctions: the bidders other than the Worker, fixed at the match (no priority in the draw). */
  bidderPool: Address[] = [];
  /** What non-parties have spent of the run's Temporal budget (budget.ts, rules/budget). */
  readonly spent = new BudgetSpent();
  /** The draw secret (draw-secret.ts): never in the view, a query or an event until the draw reveals it. */
  drawSecret: string | null = null;
  /** A step waiting for the operator, the operator's pending action, and steps done (needs-operator.ts). */
  operator: Readonly<OperatorState> = { stuck: null, action: null, releasing: false, completed: 0 };

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
    this.creation = delegationOf(input);
    this.worker = this.terms.worker;
    this.deadlines = this.terms.deadlines;
    this.createdAt = now;
    this.difficulty = contractDifficulty(this.terms.acceptanceCriteria);
  }

  /** The main loop must react to this change: it waits until the revision moves. */
  private wake(): void {
    this.revision++;
  }

  /** An operator-visible value changed: publish it at the loop's wait. */
  private publish(): void {
    publish(this);
  }

  /** The main loop's publication before it waits, and at the end (observability.ts). */
  publishNow(): void {
    publishNow(this);
  }

  record(event: ContractEvent): void {
    this.events.push(event);
  }

  /** Every status change: checked against the rules' transition table; wakes and publishes. */
  transition(to: ContractStatus): void {
    assertTransition(this.status, to);
    this.status = to;
    this.wake();
    this.publish();
  }

  /** A cancellation or a resolution for the main loop to carry out; wakes it. */
  decide(decision: Decision): void {
    if (this.decision !== null) throw new RangeError('a decision is already pending');
    this.decision = decision;
    this.wake();
  }

  /** The ledger refused the escrow: the contract is never created. */
  escrowRefused(refusal: Extract<EscrowState, { state: 'refused' }>): void {
    this.escrow = refusal;
  }

  /** The escrow is held (the draw secret first: no message sees the contract without it); publishes. */
  escrowHeld(escrow: HeldFunds, drawSecret: string): void {
    this.drawSecret = drawSecret;
    this.escrow = { state: 'held', ...escrow };
    this.publish();
  }

  /** An auction's escrow held again at the winning price (auction-match.ts). */
  escrowShrunk(escrow: HeldFunds): void {
    this.escrow = { state: 'held', ...escrow };
  }

  /** The Worker is matched on its locked stake (an auction's also on its winning quote): `matched`. */
  matched(worker: Address, stake: StakeHold, auction?: { quote: AuctionQuote; bidderPool: Address[] }): void {
    if (auction !== undefined) {
      this.winningQuote = auction.quote;
      this.bidderPool = auction.bidderPool;
    }
    this.worker = worker;
    this.stake = stake;
    this.transition('matched');
  }

  /** Auctions: a close of bidding is matching (closed) or failed with the contract still open. */
  biddingClosing(closed: boolean): void {
    this.biddingClosed = closed;
  }

  /** Auctions: the next quote's sequence number. */
  nextQuoteSequence(): number {
    return ++this.quoteSequence;
  }

  /** Auctions: the next bid-bond batch's number (every attempt, a refused one included: ids never repeat). */
  nextBondStep(): number {
    return ++this.bondSteps;
  }

  /**
   * Auctions: a checked quote replaces the bidder's earlier one, and the quote it displaced at a full
   * cap (whose bond was released in the same ledger batch); publishes (the quote count).
   */
  quoted(quote: AuctionQuote, displaced: AuctionQuote | null = null): void {
    this.quotes = this.quotes.filter((q) => q.bidder !== quote.bidder && q !== displaced);
    this.quotes.push(quote);
    this.publish();
  }

  /** A panel fee is held with the escrow or a party's bond. */
  feeHeld(round: 'panel' | 'appeal', fee: HeldFee): void {
    this.panelFees = { ...this.panelFees, [round]: fee };
  }

  /** The Worker delivered: `under-review`, with a panel to draw when `panelDue`. */
  delivered(delivery: Delivery, panelDue: boolean): void {
    this.delivery = delivery;
    // A redelivery after a change request is scored afresh (auto-verifier.ts).
    this.autoVerification = null;
    if (panelDue) {
      this.panelDue = true;
      this.panelAskedAt = delivery.deliveredAt;
    }
    this.transition('under-review');
  }

  /** The automatic verifier's result (auto-verifier.ts). */
  autoVerified(view: AutoVerificationView): void {
    this.autoVerification = view;
  }

  /** A dispute starts (true) or stops (false) locking its bond: approve and the review timeout wait meanwhile. */
  disputeBondLocking(locking: boolean): void {
    this.disputing = locking;
  }

  /** The Client disputed (its bond locked, or none): `disputed`, a panel to draw. */
  disputed(bond: HeldFunds | null, claims: Verdict[] | null): void {
    if (bond !== null) this.disputeBond = bond;
    this.disputeClaims = claims;
    this.panelDue = true;
    this.panelAskedAt = Date.now();
    this.transition('disputed');
  }

  /** A BA's accepted ballot (its seat holds the bond); wakes the loop. */
  voted(ballot: Ballot): void {
    this.ballots.push(ballot);
    this.wake();
  }

  /** No full panel could be seated: wait (retry timer) or, once the window is over, the arbiter; wakes and publishes. */
  recruiting(recruitment: Recruitment): void {
    this.recruitment = recruitment;
    this.wake();
    this.publish();
  }

  /**
   * The panel's round was void (fewer than a majority voted): its seats are posted, its silent members
   * never drawn again, a new panel due (or the arbiter, once the recruitment window is over); the fee
   * stays held for the next panel. Wakes and publishes.
   */
  roundVoided(silent: readonly Address[], recruitment: Recruitment): void {
    this.silent.push(...silent);
    this.voidRounds++;
    this.panel = null;
    this.ballots = [];
    this.recruitment = recruitment;
    this.panelDue = true;
    this.wake();
    this.publish();
  }

  /** Seats may have been freed: a contract waiting for its panel draws again now; wakes the loop. */
  seatsMayBeFree(): void {
    if (!this.panelPending) return;
    this.recruitment = { ...this.recruitment!, retryAt: Date.now() };
    this.wake();
  }

  /** The panel is drawn and seated; wakes and publishes. */
  panelDrawn(panel: Panel): void {
    this.panel = panel;
    this.panelDue = false;
    this.wake();
    this.publish();
  }

  /** A resolution starts: Criteria Met (and the tallied vote rows, if a panel voted); `resolved`. */
  resolving(criteriaMet: Verdict[], voteRows: VoteRowView[] | null): void {
    this.criteriaMet = criteriaMet;
    if (voteRows !== null) this.voteRows = voteRows;
    if (this.status === 'resolved') this.wake();
    else this.transition('resolved');
  }

  /** The first panel's tally: Criteria Met is known, `resolved` through the appeal window. */
  tallied(criteriaMet: Verdict[], appealDeadline: number): void {
    this.criteriaMet = criteriaMet;
    this.appeal = { deadline: appealDeadline, appealedBy: null, waivedBy: [], firstOutcome: criteriaMet };
    this.transition('resolved');
  }

  /** An appeal starts (true) or stops (false) locking its bond. */
  appealLocking(locking: boolean): void {
    this.appealing = locking;
  }

  /** A party appealed (its bond held, or none): the first panel is kept, an appeal panel is due; `disputed`. */
  appealed(party: AppealParty, bond: HeldFunds | null): void {
    if (this.appeal === null || this.panel === null) throw new RangeError('no tally to appeal');
    this.appeal = { ...this.appeal, appealedBy: party };
    if (bond !== null) this.appealBond = { ...bond, party };
    this.firstPanel = {
      members: this.panel.members,
      ballots: this.ballots,
      voidRounds: this.panel.voidRounds,
    };
    this.panel = null;
    this.ballots = [];
    this.recruitment = null;
    this.panelDue = true;
    this.panelAskedAt = Date.now();
    this.transition('disputed');
  }

  /** A party waived its appeal; wakes and publishes. */
  waived(party: AppealParty): void {
    if (this.appeal === null) throw new RangeError('no tally to waive an appeal of');
    this.appeal = { ...this.appeal, waivedBy: [...this.appeal.waivedBy, party] };
    this.wake();
    this.publish();
  }

  /** The settlement is posted: the Payment, and the settled status. */
  settled(payment: bigint, status: ContractStatus): void {
    this.payment = payment;
    this.transition(status);
  }

  /** What a main-loop step may change before its money moves (needs-operator.ts). */
  snapshot(): Snapshot {
    const { status, criteriaMet, voteRows, payment } = this;
    return { status, events: this.events.length, criteriaMet, voteRows, payment };
  }

  /** Undoes a failed step's changes (its ledger batch moved nothing); wakes and publishes. */
  restore(s: Snapshot): void {
    this.status = s.status;
    this.events.length = s.events;
    this.criteriaMet = s.criteriaMet;
    this.voteRows = s.voteRows;
    this.payment = s.payment;
    this.wake();
    this.publish();
  }

  /** A step waits for the operator (or no longer: null); wakes the loop. */
  flagStuck(stuck: StuckStep | null): void {
    this.operator = { ...this.operator, stuck };
    this.wake();
  }

  /** The operator's answer to a stuck step; wakes the loop. */
  operatorChose(action: OperatorAction): void {
    this.operator = { ...this.operator, action };
    this.wake();
  }

  /** The main loop takes the operator's answer (a `release` is carried out next). */
  takeOperatorAction(): OperatorAction | null {
    const { action } = this.operator;
    this.operator = {
      ...this.operator,
      action: null,
      releasing: this.operator.releasing || action === 'release',
    };
    return action;
  }

  /** The operator's release is posted. */
  released(): void {
    this.operator = { ...this.operator, releasing: false };
  }

  /** A main-loop step finished (the operator's Update answers after the next one). */
  stepCompleted(): void {
    this.operator = { ...this.operator, completed: this.operator.completed + 1 };
  }

  /** A panel's tally may still be appealed: nobody appealed, no decision yet. */
  get appealOpen(): boolean {
    return (
      this.appeal !== null &&
      this.appeal.appealedBy === null &&
      this.decision === null &&
      this.status === 'resolved'
    );
  }

  /** Every Backup Agent seated on this contract: the first panel, then the appeal panel. */
  get seatedAgents(): Address[] {
    return [...(this.firstPanel?.members ?? []), ...(this.panel?.members ?? [])];
  }

  /** No full panel could be seated yet and the recruitment window is still open. */
  get panelPending(): boolean {
    return (
      this.recruitment !== null && !this.recruitment.arbiter && this.panel === null && this.decision === null
    );
  }

  /** The recruitment window passed without a full panel: the operator's verdicts decide. */
  get awaitingArbiter(): boolean {
    return this.recruitment?.arbiter === true && this.decision === null && !this.terminal;
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
    if (held === null) throw new RangeError(`no ${kind} hold`);
    return held.holdId;
  }

  nextDeadline(now: number): NextDeadline | null {
    return nextDeadline(
      {
        status: this.status,
        verificationMode: this.terms.verificationMode,
        deadlines: this.deadlines,
        votingEndsAt: this.panel?.votingEndsAt ?? null,
        recruitmentRetryAt: this.panelPending ? this.recruitment!.retryAt : null,
        appealEndsAt: this.appealOpen ? this.appeal!.deadline : null,
      },
      now,
    );
  }

  /** Workflow code: Date.now() is the deterministic workflow time. */
  /** Who acted and when; `delegation` names the delegate key that acted for `actor`, the party of record. */
  eventContext(actor: Actor, delegation?: Delegation | null): EventContext {
    return {
      contractId: this.contractId,
      at: Date.now(),
      actor,
      ...(delegation ? { delegate: delegation.delegate } : {}),
    };
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
            round: this.delivery.round,
          };
    const deadlines = deadlinesToIso(this.deadlines);
    return {
      contractId: this.contractId,
      created: this.created,
      status: this.status,
      contractCode: this.terms.code,
      contractType: this.terms.contractType,
      awardMethod: this.terms.awardMethod,
      verificationMode: this.terms.verificationMode,
      difficulty: this.difficulty,
      client: this.terms.client,
      worker: this.worker,
      taskDescription: this.terms.taskDescription,
      acceptanceCriteria: this.terms.acceptanceCriteria,
      criteriaMet: this.criteriaMet,
      backupAgents: this.seatedAgents,
      panelPending: this.panelPending,
      awaitingArbiter: this.awaitingArbiter,
      appealDeadline: this.appealOpen ? new Date(this.appeal!.deadline).toISOString() : null,
      mayAppeal: this.appealOpen ? mayStillAppeal(this.appeal!, Date.now()) : [],
      appealedBy: this.appeal?.appealedBy ?? null,
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
      minWorkerStake: toWire(this.params.minWorkerStake),
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
        bidBond: toWire(q.bond.amount),
      })),
      winningQuoteId: this.winningQuote?.quoteId ?? null,
      revisionCount: this.revisions.length,
      maxRevisions: this.params.maxRevisions,
      revisions: this.revisions.map((r) => ({
        requestedAt: new Date(r.requestedAt).toISOString(),
        criteria: [...r.criteria],
        note: r.note,
        deliveryDeadline: new Date(r.deliveryDeadline).toISOString(),
        reviewDeadline: new Date(r.reviewDeadline).toISOString(),
      })),
    };
  }

  /** docs/protocol.md §9: a panel exists only at the voting stage (standard) or after a dispute (privacy-preserving). */
  keyReaders(): KeyReaders {
    const panel = this.seatedAgents;
    const worker = this.stake !== null && this.worker !== null ? [this.worker] : [];
    return {
      materials: [...worker, ...panel],
      // The Client may always ask (nothing delivered yet → the API answers 404 for the missing key).
      delivery: [this.terms.client, ...panel],
    };
  }
}
