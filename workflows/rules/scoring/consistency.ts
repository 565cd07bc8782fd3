// The scoring reference: "Verification Type 1: Consistency": scoreConsistency, calculateTimeliness, calculateQuality.
import type { ConsistencyCheck } from '../machine-checks';
import {
  expectedIntervalHours,
  gracePeriodHours,
  screenRecords,
  type CountedRecord,
  type EvidenceRecord,
} from './evidence';
import { percent, scoreResult, type RecordAccounting, type ScoreResult } from './result';
import { snapScore } from './verdict';

export const CONSISTENCY_WEIGHTS = { completion: 0.7, timeliness: 0.2, quality: 0.1 } as const;

/** Points a record loses for each unmet content requirement (seed calculateQuality). */
export const CONTENT_DEDUCTIONS = { minLength: 20, requiredTags: 30, forbiddenContent: 50 } as const;

const HOUR_MS = 3_600_000;

export interface ConsistencyBreakdown extends RecordAccounting {
  type: 'consistency';
  weights: typeof CONSISTENCY_WEIGHTS;
  /** min(100, counted / minimumActions × 100). */
  completionRate: number;
  actionsCounted: number;
  actionsRequired: number;
  actionsMissed: number;
  /** On-time intervals / intervals × 100; 100 when there are fewer than two records (seed). */
  timelinessScore: number;
  intervalsOnTime: number;
  intervalsLate: number;
  /** Longest allowed gap: expected interval + grace period, in hours. */
  maxIntervalHours: number;
  /** Mean per-record content score; 100 without content requirements, 0 with them and no record. */
  qualityScore: number;
  recordsTooShort: number;
  recordsMissingTags: number;
  recordsWithForbiddenContent: number;
}

function timeliness(counted: readonly CountedRecord[], maxIntervalHours: number) {
  let onTime = 0;
  for (let i = 1; i < counted.length; i++) {
    const gapHours = (counted[i]!.at - counted[i - 1]!.at) / HOUR_MS;
    if (gapHours <= maxIntervalHours) onTime++;
  }
  const intervals = Math.max(0, counted.length - 1);
  return { onTime, late: intervals - onTime, score: intervals > 0 ? percent(onTime, intervals) : 100 };
}

/**
 * A record lacking the fact a requirement needs fails that requirement (the seed's JavaScript
 * would let an absent length pass `undefined < min`). Terms match case-insensitively.
 */
function contentFailures(record: EvidenceRecord, req: NonNullable<ConsistencyCheck['contentRequirements']>) {
  const tooShort = req.minLength !== undefined && !((record.contentLength ?? -1) >= req.minLength);
  const missingTags =
    req.requiredTags !== undefined && !req.requiredTags.every((tag) => record.contentTags?.includes(tag));
  const text = record.contentText?.toLowerCase();
  const forbidden =
    req.forbiddenContent !== undefined &&
    (text === undefined || req.forbiddenContent.some((term) => text.includes(term.toLowerCase())));
  return { tooShort, missingTags, forbidden };
}

function contentQuality(counted: readonly CountedRecord[], req: ConsistencyCheck['contentRequirements']) {
  const tally = { score: 100, tooShort: 0, missingTags: 0, forbidden: 0 };
  if (req === undefined) return tally;
  let sum = 0;
  for (const { record } of counted) {
    const f = contentFailures(record, req);
    tally.tooShort += Number(f.tooShort);
    tally.missingTags += Number(f.missingTags);
    tally.forbidden += Number(f.forbidden);
    const deduction =
      (f.tooShort ? CONTENT_DEDUCTIONS.minLength : 0) +
      (f.missingTags ? CONTENT_DEDUCTIONS.requiredTags : 0) +
      (f.forbidden ? CONTENT_DEDUCTIONS.forbiddenContent : 0);
    sum += Math.max(0, 100 - deduction);
  }
  tally.score = counted.length > 0 ? snapScore(sum / counted.length) : 0;
  return tally;
}

export function scoreConsistency(
  check: ConsistencyCheck,
  records: readonly EvidenceRecord[],
  evaluatedAt: number,
): ScoreResult<ConsistencyBreakdown> {
  const { counted, rejected } = screenRecords(check, records, evaluatedAt);
  const completionRate = Math.min(100, percent(counted.length, check.minimumActions));
  const maxIntervalHours = expectedIntervalHours(check) + gracePeriodHours(check);
  const time = timeliness(counted, maxIntervalHours);
  const quality = contentQuality(counted, check.contentRequirements);
  const w = CONSISTENCY_WEIGHTS;
  const raw = completionRate * w.completion + time.score * w.timeliness + quality.score * w.quality;
  return scoreResult(raw, {
    type: 'consistency',
    weights: w,
    completionRate,
    actionsCounted: counted.length,
    actionsRequired: check.minimumActions,
    actionsMissed: Math.max(0, check.minimumActions - counted.length),
    timelinessScore: time.score,
    intervalsOnTime: time.onTime,
    intervalsLate: time.late,
    maxIntervalHours,
    qualityScore: quality.score,
    recordsTooShort: quality.tooShort,
    recordsMissingTags: quality.missingTags,
    recordsWithForbiddenContent: quality.forbidden,
    recordsCounted: counted.length,
    recordsRejected: rejected,
  });
}
