// The automatic verifier (docs/protocol.md §10, §13): on delivery, the contract's machine-checkable criteria are
// scored against the delivery's evidence by the `scoreDelivery` activity, and the result is published
// as an `agent.verified` event (keys and verdict only) and in the party view (scores and breakdown).
// It informs the Client and the panel; it never decides: no decision, no status, no money here.
import { log } from '@temporalio/workflow';
import type { AutoVerificationView } from '../../definitions';
import { agentVerdictFor } from '../../rules/agent-verdicts';
import { agentVerifiedEvent } from '../../rules/event-constructors';
import { AUTO_VERIFIER_AGENT_ID } from '../../rules/events';
import { checksOf, verdictsByCriterion, type ScoredCriterion } from '../../rules/scoring/criteria';
import type { DeliveryEvidence } from '../../rules/scoring/evidence';
import { local } from '../activity-proxies';
import type { Contract } from '../state';

/** Only the checks travel to the activity: a criterion's text is not needed to score it. */
function checksOnly(criteria: readonly ScoredCriterion[]): ScoredCriterion[] {
  return checksOf(criteria).map((check) => (check === undefined ? {} : { check }));
}

/**
 * Scores the delivery just recorded on `c` (status `under-review`). Does nothing for a contract
 * without machine checks.
 */
export async function verifyDelivery(c: Contract, evidence: DeliveryEvidence | undefined): Promise<void> {
  const criteria = c.terms.acceptanceCriteria;
  const delivery = c.work.delivery;
  if (delivery === null || checksOf(criteria).every((check) => check === undefined)) return;
  let scored;
  try {
    scored = await local.scoring.scoreDelivery({
      criteria: checksOnly(criteria),
      ...(evidence === undefined ? {} : { evidence }),
      evaluatedAt: new Date(delivery.deliveredAt).toISOString(),
    });
  } catch (error) {
    // Content-free: the failure's type only (its message may quote the evidence).
    log.warn('automatic verification failed; the delivery stays unscored', {
      contractId: c.contractId,
      failure: error instanceof Error ? error.name : 'unknown',
    });
    return;
  }
  const verdicts = verdictsByCriterion(scored.results, criteria.length);
  const view: AutoVerificationView = {
    agentId: AUTO_VERIFIER_AGENT_ID,
    target: delivery.sha256,
    evaluatedAt: scored.evaluatedAt,
    verdict: agentVerdictFor(scored.results.map((r) => r.verdict)),
    results: scored.results,
  };
  c.work.autoVerified(view);
  c.record(
    agentVerifiedEvent(c.eventContext('auto-verifier'), {
      agentId: AUTO_VERIFIER_AGENT_ID,
      role: 'auto-verifier',
      deliverySha256: delivery.sha256,
      verdicts,
    }),
  );
}
