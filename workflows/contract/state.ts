// The state of one contract inside its workflow: terms, escrow, status, the pending decision, the
// event log and the operator's desk, around the state of each phase (match/, and the stage's work/,
// review/, panel/, appeal/, settlement/). Read-only to every other module (the Contract type); each
// change is a named mutator of the state that owns the field, which wakes the main loop and publishes
// where the change calls for it (docs/workflow.md "State protocol"). Every status change goes through
// `transition`, which checks it against the rules' transition table.
import { ApplicationFailure } from '@temporalio/workflow';
import type { ContractInput, Delegation } from '../definitions';
import { FailureType } from '../definitions';
import { nextDeadline, type NextDeadline } from '../rules/deadlines';
import { contractDifficulty, type DifficultyLevel } from '../rules/difficulty';
import type { Actor, ContractEvent } from '../rules/events';
import type { EventContext } from '../rules/event-constructors';
import { fromWire } from '../rules/money';
import { paramsFromWire, type ProtocolParams } from '../rules/params';
import { assertTransition, isTerminal, type ContractStatus } from '../rules/status';
import { BudgetSpent } from './budget-spent';
import type { Decision } from './decision';
import { delegationOf } from './delegation';
import { MatchPhase } from './match/state';
import { publish, publishNow, type Publication } from './observability';
import { OperatorDesk } from './operator-desk';
import type { HeldFunds, Pulse, ReadOnly } from './phase';
import { Stage } from './stage';
import {
  milestoneProgress,
  milestoneDeadlines,
  type MilestoneEnded,
  type MilestoneProgress,
} from './milestone-state';
import { milestoneAmounts, milestoneStartDeadlines } from '../rules/milestones';
import type { HeldFee } from './phase';
import type { EscrowState, ReadModelWrites, Snapshot, WorkflowTerms } from './state-shapes';

/**
 * The contract as every other module sees it: each field read-only (the phases' too), each change
 * through a named mutator, which wakes the main loop and publishes where the change calls for it.
 */
export type Contract = ReadOnly<ContractState>;

/** A new contract's state. */
export function newContract(input: ContractInput, now: number): Contract {
  return new ContractState(input, now);
}

// The fields are public for the Contract view above; only this class assigns them, and only the
// phases assign theirs. Its pulse is the phases' one way to wake the main loop and publish.
class ContractState {
  readonly contractId: string;
  /** The mandate a delegate created the contract under (its escrow is committed there), if one did. */
  readonly creation: Delegation | null;
  /** The terms; with milestones their `acceptanceCriteria` are the current milestone's (nextMilestone). */
  terms: WorkflowTerms;
  readonly params: ProtocolParams;
  readonly createdAt: number;
  /** Kinetix difficulty, fixed at creation (rules/difficulty). */
  readonly difficulty: DifficultyLevel;

  escrow: EscrowState = { state: 'pending' };
  status: ContractStatus = 'created';
  decision: Decision | null = null;
  /** Bumped (wake) on every change the main loop must react to; the Update receipts show it. */
  revision = 0;
  events: ContractEvent[] = [];
  /** What observability.publish last sent and whether a change waits to be published. */
  readonly publication: Publication = { key: '', pending: false };
  /** What the read model was last written with (read-model.ts). */
  readonly readModel: ReadModelWrites = { key: '', version: 0, confirmed: { version: 0, events: 0 } };
  /** What non-parties have spent of the run's Temporal budget (budget.ts, rules/budget). */
  readonly spent = new BudgetSpent();
  /** The draw secret (draw-secret.ts): never in the view, a query or an event until the draw reveals it. */
  drawSecret: string | null = null;

  private readonly pulse: Pulse;
  readonly match: ReadOnly<MatchPhase>;
  /** A step waiting for the operator, the operator's pending action, and steps done (needs-operator.ts). */
  readonly operator: ReadOnly<OperatorDesk>;
  /** The stage in force: its phases are read through the getters below (one per milestone). */
  private stage: Stage;
  /** With milestones (docs/protocol.md §6a): the plan, the current one, how each earlier one ended. */
  milestone: MilestoneProgress | null;

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
    this.createdAt = now;
    this.difficulty = contractDifficulty(this.terms.acceptanceCriteria);
    this.pulse = {
      status: () => this.status,
      wake: () => this.revision++,
      publish: () => publish(this),
      transition: (to) => this.transition(to),
    };
    this.match = new MatchPhase(this.pulse, this.terms, this.params);
    this.operator = new OperatorDesk(this.pulse);
    this.milestone = milestoneProgress(this.terms.milestones);
    const first = this.terms.milestones?.[0];
    const deadlines =
      first === undefined ? this.terms.deadlines : milestoneDeadlines(this.terms.deadlines, first);
    this.stage = new Stage(this.pulse, deadlines);
  }

  get work() {
    return this.stage.work;
  }

  get review() {
    return this.stage.review;
  }

  get panel() {
    return this.stage.panel;
  }

  get appeal() {
    return this.stage.appeal;
  }

  get settlement() {
    return this.stage.settlement;
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
    this.pulse.wake();
    this.pulse.publish();
  }

  /** A cancellation or a resolution for the main loop to carry out; wakes it. */
  decide(decision: Decision): void {
    if (this.decision !== null) throw new RangeError('a decision is already pending');
    this.decision = decision;
    this.pulse.wake();
  }

  /** The ledger refused the escrow: the contract is never created. */
  escrowRefused(refusal: Extract<EscrowState, { state: 'refused' }>): void {
    this.escrow = refusal;
  }

  /** The escrow is held (the draw secret first: no message sees the contract without it); publishes. */
  escrowHeld(escrow: HeldFunds, drawSecret: string): void {
    this.drawSecret = drawSecret;
    this.escrow = { state: 'held', ...escrow };
    this.pulse.publish();
  }

  /** An auction's escrow held again at the winning price (match/auction-match.ts). */
  escrowShrunk(escrow: HeldFunds): void {
    this.escrow = { state: 'held', ...escrow };
  }

  /** A milestone ended (milestone-loop.ts): its outcome stands. */
  milestoneEnded(ended: MilestoneEnded): void {
    if (this.milestone === null) throw new RangeError('a contract without milestones');
    this.milestone = { ...this.milestone, ended: [...this.milestone.ended, ended] };
  }

  /**
   * The next milestone starts: a new stage (work, review, panel, appeal, settlement) with its criteria and
   * its deadlines (rules/milestones milestoneStartDeadlines), on what was held again for it of the
   * escrow, the stake and a standard contract's panel fees; `matched`.
   */
  nextMilestone(held: { escrow: HeldFunds; stake: HeldFunds; panelFee: HeldFee | null }): void {
    const progress = this.milestone;
    if (progress === null) throw new RangeError('a contract without milestones');
    const index = progress.index + 1;
    const next = progress.plan[index];
    if (next === undefined) throw new RangeError('no milestone after the last');
    const start = milestoneStartDeadlines(progress.plan[progress.index]!, next, Date.now());
    const previous = this.stage.panel;
    this.stage = new Stage(this.pulse, { ...this.terms.deadlines, ...start });
    this.stage.panel.continues(previous, held.panelFee);
    this.terms = { ...this.terms, acceptanceCriteria: next.acceptanceCriteria };
    this.escrow = { state: 'held', ...held.escrow };
    this.match.stakeHeldAgain(held.stake);
    this.milestone = { ...progress, index, firstEvent: this.events.length };
    this.decision = null;
    this.transition('matched');
  }

  /**
   * What a review or a panel decides on (a Dispute or Appeal Bond is a share of it): the current
   * milestone's amount, or the Escrowed Funds.
   */
  get amountAtStake(): bigint {
    const price = this.match.price;
    if (this.milestone === null || price === null) return this.escrowedFunds;
    return milestoneAmounts(price, this.milestone.plan)[this.milestone.index]!;
  }

  /** Seats may have been freed: a contract waiting for its panel draws again now; wakes the loop. */
  seatsMayBeFree(): void {
    if (this.panelPending) this.panel.retryNow();
  }

  /** What a main-loop step may change before its money moves (needs-operator.ts). */
  snapshot(): Snapshot {
    const { criteriaMet, payment } = this.settlement;
    const { rows } = this.panel;
    return {
      status: this.status,
      events: this.events.length,
      criteriaMet: criteriaMet && [...criteriaMet],
      voteRows: rows && [...rows],
      payment,
    };
  }

  /** Undoes a failed step's changes (its ledger batch moved nothing); wakes and publishes. */
  restore(s: Snapshot): void {
    this.status = s.status;
    this.events.length = s.events;
    this.settlement.restore(s.criteriaMet, s.payment);
    this.panel.tallied(s.voteRows);
    this.pulse.wake();
    this.pulse.publish();
  }

  /** A panel's tally may still be appealed: nobody appealed, no decision yet. */
  get appealOpen(): boolean {
    const window = this.appeal.window;
    return (
      window !== null && window.appealedBy === null && this.decision === null && this.status === 'resolved'
    );
  }

  /** No full panel could be seated yet and the recruitment window is still open. */
  get panelPending(): boolean {
    const { recruitment, current } = this.panel;
    return recruitment !== null && !recruitment.arbiter && current === null && this.decision === null;
  }

  /** The recruitment window passed without a full panel: the operator's verdicts decide. */
  get awaitingArbiter(): boolean {
    return this.panel.recruitment?.arbiter === true && this.decision === null && !this.terminal;
  }

  get created(): boolean {
    return this.escrow.state === 'held';
  }

  get terminal(): boolean {
    return isTerminal(this.status);
  }

  /** What the escrow holds: the price or budget cap, and an auction's winning price after the match refund. */
  get escrowedFunds(): bigint {
    return this.escrow.state === 'held' ? this.escrow.amount : this.terms.amount;
  }

  nextDeadline(now: number): NextDeadline | null {
    return nextDeadline(
      {
        status: this.status,
        verificationMode: this.terms.verificationMode,
        deadlines: this.work.deadlines,
        votingEndsAt: this.panel.current?.votingEndsAt ?? null,
        recruitmentRetryAt: this.panelPending ? this.panel.recruitment!.retryAt : null,
        appealEndsAt: this.appealOpen ? this.appeal.window!.deadline : null,
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
}
