// The milestones' part of a contract's state (docs/protocol.md §6a): which milestone is worked and how
// each earlier one ended, and how the view shows them. The per-milestone work itself (delivery, review,
// panel, appeal) is the contract's own state, started afresh for each milestone (state.ts nextMilestone).
import type { MilestoneView } from '../definitions';
import type { Milestone } from '../rules/milestones';
import { milestoneAmounts } from '../rules/milestones';
import type { Deadlines } from '../rules/deadlines';
import type { ContractStatus, SettledStatus } from '../rules/status';
import { toWire } from '../rules/money';
import type { Verdict } from '../rules/verdicts';

/** How one milestone ended. */
export interface MilestoneEnded {
  status: SettledStatus | 'cancelled-absent';
  delivered: boolean;
  payment: bigint;
  criteriaMet: Verdict[] | null;
}

export interface MilestoneProgress {
  readonly plan: readonly Milestone[];
  /** The milestone being worked (0-based). */
  index: number;
  /** The events the contract held when this milestone started: its own events follow. */
  firstEvent: number;
  /** Each ended milestone's outcome, in order. */
  ended: MilestoneEnded[];
}

export function milestoneProgress(plan: readonly Milestone[] | undefined): MilestoneProgress | null {
  return plan === undefined ? null : { plan, index: 0, firstEvent: 0, ended: [] };
}

/** The deadlines of milestone `index`: the contract's match and withdrawal, its own delivery and review. */
export function milestoneDeadlines(base: Deadlines, m: Milestone): Deadlines {
  return { ...base, delivery: m.deadlines.delivery, review: m.deadlines.review };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Every milestone with its status, amount, deadlines and Criteria Met (the current one's from the contract). */
export function milestonesView(
  p: MilestoneProgress,
  current: { status: ContractStatus; deadlines: Deadlines; criteriaMet: readonly Verdict[] | null },
  price: bigint | null,
): MilestoneView[] {
  const amounts = price === null ? null : milestoneAmounts(price, p.plan);
  // A contract cancelled as a whole (nothing delivered: withdrawn, unmatched, absent on its first milestone…)
  // cancels every milestone that had not ended, none paid.
  const cancelled = current.status.startsWith('cancelled-');
  return p.plan.map((m, index) => {
    const ended = p.ended[index];
    const isCurrent = index === p.index && ended === undefined;
    const deadlines = isCurrent ? current.deadlines : m.deadlines;
    return {
      index,
      title: m.title,
      shareBps: m.shareBps,
      acceptanceCriteria: m.acceptanceCriteria,
      status: ended?.status ?? (cancelled || isCurrent ? current.status : 'pending'),
      amount: amounts === null ? null : toWire(amounts[index]!),
      deadlines: { delivery: iso(deadlines.delivery)!, review: iso(deadlines.review) },
      criteriaMet:
        ended !== undefined
          ? ended.criteriaMet
          : isCurrent
            ? current.criteriaMet && [...current.criteriaMet]
            : null,
      payment: ended !== undefined ? toWire(ended.payment) : cancelled ? '0' : null,
    };
  });
}
