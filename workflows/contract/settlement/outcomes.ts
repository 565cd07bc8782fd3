// The contract's outcome records (docs/reputation.md §1): when it ends, one record per party goes to
// the public, hash-chained outcome log, from what the workflow already holds (the payment, the vote
// rows, how it was resolved or why it was cancelled). One local activity call per ending; the store
// writes each party's record once (a retried task's second call adds nothing).
import type { OutcomeEnding } from '../../rules/outcomes';
import { outcomeEntries } from '../../rules/outcomes';
import { cancellationReasonOf } from '../../rules/status';
import { local } from '../activity-proxies';
import type { Verdict } from '../../rules/verdicts';
import type { Contract } from '../state';

const CANCELLED_ENDING = {
  'by-client': 'cancelled',
  unmatched: 'unmatched',
  withdrawn: 'withdrawn',
  absent: 'absent',
  'by-operator': 'released-by-operator',
} as const satisfies Record<NonNullable<ReturnType<typeof cancellationReasonOf>>, OutcomeEnding>;

/** How the contract ended, or null while it has not. */
export function endingOf(c: Contract): OutcomeEnding | null {
  if (!c.terminal) return null;
  const reason = cancellationReasonOf(c.status);
  if (reason !== null) return CANCELLED_ENDING[reason];
  const decision = c.decision;
  if (decision === null || decision.kind !== 'resolve') return null;
  switch (decision.source) {
    case 'client-approval':
      return 'approved';
    case 'review-timeout':
      return 'review-timed-out';
    case 'trusted-arbiter':
      return 'arbiter';
    case 'panel-tally':
      return c.panel.first === null ? 'panel' : 'appeal';
  }
}

/** How one milestone ended (milestone-loop.ts): its index, what it paid, its Criteria Met, a dispute. */
export interface MilestoneEnding {
  index: number;
  ending: OutcomeEnding;
  payment: bigint;
  criteriaMet: Verdict[] | null;
  disputed: boolean;
}

/**
 * The outcome records of the contract's ending, or of one milestone's (docs/reputation.md §1): a
 * contract whose milestones wrote records writes none for the whole, so its volume counts once.
 */
export async function appendOutcomes(c: Contract, milestone: MilestoneEnding | null = null): Promise<void> {
  if (milestone === null && (c.milestone?.ended.length ?? 0) > 0) return;
  const ending = milestone?.ending ?? endingOf(c);
  if (ending === null) return;
  const settled = milestone !== null || c.status.startsWith('settled-');
  const milestoneIndex = milestone?.index ?? null;
  const entries = outcomeEntries({
    contractId: c.contractId,
    milestoneIndex,
    ending,
    client: c.terms.client,
    // A Worker named by a direct award who never accepted is no party: a Client cannot pad a
    // stranger's record with contracts it cancelled or let lapse.
    worker: c.events.some((e) => e.type === 'contract.matched') ? c.match.worker : null,
    payment: milestone?.payment ?? (settled ? (c.settlement.payment ?? 0n) : 0n),
    criteriaMet: milestone !== null ? milestone.criteriaMet : settled ? c.settlement.criteriaMet : null,
    scores: new Map((c.work.autoVerification?.results ?? []).map((r) => [r.criterionIndex, r.score])),
    disputed: milestone?.disputed ?? c.events.some((e) => e.type === 'contract.disputed'),
    appealedBy: c.appeal.window?.appealedBy ?? null,
    revisionsRequested: c.work.revisions.length,
    difficulty: c.difficulty,
    votes: settled ? (c.panel.rows ?? []) : [],
    endedAt: new Date().toISOString(),
  });
  await local.outcomes.appendOutcomes({ contractId: c.contractId, milestoneIndex, entries });
}
