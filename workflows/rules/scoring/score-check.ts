// One entry point: score any machine check against its records, at an evaluation time.
import type { MachineCheck } from '../machine-checks';
import { scoreConsistency, type ConsistencyBreakdown } from './consistency';
import type { EvidenceRecord } from './evidence';
import { scoreQuality, type QualityBreakdown } from './quality';
import type { ScoreResult } from './result';
import { scoreTimeBound, type TimeBoundBreakdown } from './time-bound';

export type CheckBreakdown = ConsistencyBreakdown | QualityBreakdown | TimeBoundBreakdown;
export type CheckScore = ScoreResult<CheckBreakdown>;

/** `evaluatedAt` in epoch milliseconds: records dated after it do not count. */
export function scoreCheck(
  check: MachineCheck,
  records: readonly EvidenceRecord[],
  evaluatedAt: number,
): CheckScore {
  if (!Number.isFinite(evaluatedAt))
    throw new RangeError(`evaluatedAt must be a finite time, got ${evaluatedAt}`);
  switch (check.type) {
    case 'consistency':
      return scoreConsistency(check, records, evaluatedAt);
    case 'quality':
      return scoreQuality(check, records, evaluatedAt);
    case 'time_bound':
      return scoreTimeBound(check, records, evaluatedAt);
  }
}
