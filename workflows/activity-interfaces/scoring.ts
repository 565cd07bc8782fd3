// The automatic verifier's activity as the workflow calls it (activities/scoring-activities.ts).
import type { CriterionScore, ScoredCriterion } from '../rules/scoring/criteria';

export interface ScoreDeliveryInput {
  /** The contract's acceptance criteria, in order; only their checks are read. */
  criteria: ScoredCriterion[];
  /** The delivery's `evidence` as ingested (api/ingest); absent when the delivery carries none. */
  evidence?: unknown;
  /** ISO-8601 instant of the evaluation (the delivery's time): records dated later do not count. */
  evaluatedAt: string;
}

export interface ScoreDeliveryResult {
  evaluatedAt: string;
  /** One entry per criterion that carries a machine check, in criterion order. */
  results: CriterionScore[];
}

export interface ScoringActivities {
  scoreDelivery(input: ScoreDeliveryInput): Promise<ScoreDeliveryResult>;
}
