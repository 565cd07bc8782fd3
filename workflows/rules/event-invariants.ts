// Rules over a whole event log (docs/scoring.md §6), checked by the tests on every log they produce.
import { agentVerdictFor, type AgentVerdict } from './agent-verdicts';
import type { ContractEvent, ContractSettledEvent } from './events';
import type { Verdict } from './verdicts';

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
 * docs/scoring.md §6: a `fail` verdict that is the binding outcome (the resolution) must never be followed by
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
      `event log breaks its rules: ${violations.map((v) => `#${v.index} ${v.message}`).join('; ')}`,
    );
  }
}
