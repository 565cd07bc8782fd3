// The automatic verifier (docs/protocol.md §10): scores a delivery's evidence against the contract's
// machine-checkable criteria. Pure computation; an activity so its result is recorded once in the
// history and the workflow never re-runs the scoring on replay.
import { ApplicationFailure } from '@temporalio/common';
import { deliveryEvidenceSchema, evidenceCriteriaErrors } from '../workflows/rules/scoring/evidence';
import { fieldErrorsFromZod, type FieldError } from '../workflows/rules/field-errors';
import type {
  ScoreDeliveryInput,
  ScoreDeliveryResult,
  ScoringActivities,
} from '../workflows/activity-interfaces';
import { checksOf, scoreCriteria } from '../workflows/rules/scoring/criteria';

export const INVALID_EVIDENCE_FAILURE = 'InvalidEvidence';

function invalidEvidence(message: string, errors: FieldError[]): never {
  throw ApplicationFailure.nonRetryable(message, INVALID_EVIDENCE_FAILURE, { errors });
}

export function createScoringActivities(): ScoringActivities {
  return {
    async scoreDelivery(input: ScoreDeliveryInput): Promise<ScoreDeliveryResult> {
      const evaluatedAt = Date.parse(input.evaluatedAt);
      if (Number.isNaN(evaluatedAt))
        invalidEvidence('evaluatedAt is not an instant', [
          { field: 'evaluatedAt', message: 'must be an ISO-8601 instant' },
        ]);
      let evidence;
      if (input.evidence !== undefined) {
        const parsed = deliveryEvidenceSchema.safeParse(input.evidence);
        if (!parsed.success)
          invalidEvidence('invalid evidence', fieldErrorsFromZod(parsed.error, 'evidence'));
        const errors = evidenceCriteriaErrors(parsed.data, checksOf(input.criteria));
        if (errors.length > 0) invalidEvidence('evidence for a criterion without a check', errors);
        evidence = parsed.data;
      }
      return {
        evaluatedAt: new Date(evaluatedAt).toISOString(),
        results: scoreCriteria(input.criteria, evidence, evaluatedAt),
      };
    },
  };
}
