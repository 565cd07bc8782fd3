// An agent's verdict over a delivery (the `agent.verified` event's `pass`/`fail`/`revise`), derived
// from per-criterion verdicts.
import type { Verdict } from './verdicts';

export type AgentVerdict = 'pass' | 'fail' | 'revise';

/**
 * Per-criterion verdicts → one agent.verified verdict: every criterion met → `pass`; any not met →
 * `fail`; otherwise (some unclear, none not met) → `revise`. With this mapping a binding `fail` means
 * `met < resolved`, which docs/protocol.md §7a never pays in full.
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
