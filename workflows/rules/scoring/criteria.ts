// Scores every machine-checkable criterion of a contract against a delivery's evidence (docs/protocol.md §10).
import type { MachineCheck } from '../machine-checks';
import { criterionKey } from '../criterion-keys';
import type { Verdict } from '../verdicts';
import type { DeliveryEvidence } from './evidence';
import { scoreCheck, type CheckBreakdown } from './score-check';

export interface CriterionScore {
  criterionIndex: number;
  /** `c1` … `c10` (events.ts). */
  key: string;
  checkType: MachineCheck['type'];
  score: number;
  roundedScore: number;
  verdict: Verdict;
  breakdown: CheckBreakdown;
}

/** A criterion as the contract holds it: text, or text with a check (only the check is read). */
export type ScoredCriterion = string | { check?: MachineCheck };

export function checksOf(criteria: readonly ScoredCriterion[]): (MachineCheck | undefined)[] {
  return criteria.map((c) => (typeof c === 'string' ? undefined : c.check));
}

/**
 * One result per criterion that carries a check, in criterion order. A checked criterion without
 * evidence is scored on no records (it gets the algorithm's score for nothing done). Evidence for a
 * criterion without a check is ignored here; evidenceCriteriaErrors refuses it at ingest.
 */
export function scoreCriteria(
  criteria: readonly ScoredCriterion[],
  evidence: DeliveryEvidence | undefined,
  evaluatedAt: number,
): CriterionScore[] {
  return checksOf(criteria).flatMap((check, criterionIndex) => {
    if (check === undefined) return [];
    const records = evidence?.find((e) => e.criterionIndex === criterionIndex)?.records ?? [];
    const result = scoreCheck(check, records, evaluatedAt);
    return [{ criterionIndex, key: criterionKey(criterionIndex), checkType: check.type, ...result }];
  });
}

/** The automatic verifier's verdicts indexed by criterion (`undefined` where nothing was checked). */
export function verdictsByCriterion(
  scores: readonly CriterionScore[],
  criteriaCount: number,
): (Verdict | undefined)[] {
  const verdicts: (Verdict | undefined)[] = Array.from({ length: criteriaCount }, () => undefined);
  for (const s of scores) verdicts[s.criterionIndex] = s.verdict;
  return verdicts;
}
