// The scoring reference: "Verification Type 3: Time-Bound": scoreTimeBound, milestone by milestone.
import type { Milestone, TimeBoundCheck } from '../machine-checks';
import { screenRecords, type EvidenceRecord } from './evidence';
import { percent, scoreResult, type RecordAccounting, type ScoreResult } from './result';
import { snapScore } from './verdict';

export const EARLY_BONUS_PER_HOUR = 0.5;
export const MAX_EARLY_BONUS = 20;
export const DEFAULT_PENALTY_PER_LATE_HOUR = 1;

const HOUR_MS = 3_600_000;

export type MilestoneStatus = 'early' | 'on_time' | 'late' | 'missed';

export interface MilestoneScore {
  milestoneId: string;
  /** Rounded like the seed's milestone scores (Math.round); 0–120. */
  score: number;
  status: MilestoneStatus;
  /** Index in the delivery's records of the delivery used (the earliest one for the milestone). */
  recordIndex?: number;
  /** Hours after the deadline minus the grace period (late) or before the deadline (early). */
  hoursLate?: number;
  hoursEarly?: number;
}

export interface TimeBoundBreakdown extends RecordAccounting {
  type: 'time_bound';
  penaltyPerLateHour: number;
  milestones: MilestoneScore[];
  /** Average of the rounded milestone scores: the score. */
  timelinessScore: number;
  /** Milestones scoring above 0, and that as a rounded percentage (seed `completion_rate`). */
  milestonesCompleted: number;
  milestonesTotal: number;
  completionRate: number;
}

function scoreMilestone(
  milestone: Milestone,
  delivered: { at: number; recordIndex: number } | undefined,
  check: TimeBoundCheck,
): MilestoneScore {
  const { milestoneId } = milestone;
  if (!delivered) return { milestoneId, score: 0, status: 'missed' };
  const deadline = Date.parse(milestone.deadline);
  const grace = milestone.gracePeriodHours ?? 0;
  const hoursEarly = snapScore((deadline - delivered.at) / HOUR_MS);
  const hoursLate = snapScore((delivered.at - deadline) / HOUR_MS - grace);
  const rate = check.penaltyPerLateHour ?? DEFAULT_PENALTY_PER_LATE_HOUR;
  const recordIndex = delivered.recordIndex;
  if (hoursLate > 0) {
    const penalty = Math.min(100, hoursLate * rate);
    return {
      milestoneId,
      score: Math.round(Math.max(0, 100 - penalty)),
      status: 'late',
      recordIndex,
      hoursLate,
    };
  }
  if (hoursEarly > 0) {
    const bonus =
      check.allowEarlyCompletion === false ? 0 : Math.min(MAX_EARLY_BONUS, hoursEarly * EARLY_BONUS_PER_HOUR);
    return {
      milestoneId,
      score: Math.round(Math.min(120, 100 + bonus)),
      status: 'early',
      recordIndex,
      hoursEarly,
    };
  }
  return { milestoneId, score: 100, status: 'on_time', recordIndex };
}

export function scoreTimeBound(
  check: TimeBoundCheck,
  records: readonly EvidenceRecord[],
  evaluatedAt: number,
): ScoreResult<TimeBoundBreakdown> {
  const { counted, rejected } = screenRecords(check, records, evaluatedAt);
  const milestones = check.milestones.map((m) =>
    // `counted` is in time order, so this is the first delivery of the milestone.
    scoreMilestone(
      m,
      counted.find((c) => c.record.milestoneId === m.milestoneId),
      check,
    ),
  );
  const average = milestones.reduce((s, m) => s + m.score, 0) / milestones.length;
  const completed = milestones.filter((m) => m.score > 0).length;
  return scoreResult(average, {
    type: 'time_bound',
    penaltyPerLateHour: check.penaltyPerLateHour ?? DEFAULT_PENALTY_PER_LATE_HOUR,
    milestones,
    timelinessScore: snapScore(average),
    milestonesCompleted: completed,
    milestonesTotal: milestones.length,
    completionRate: Math.round(percent(completed, milestones.length)),
    recordsCounted: counted.length,
    recordsRejected: rejected,
  });
}
