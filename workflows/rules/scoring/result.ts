// What every scoring algorithm returns: the score, its verdict, and why (the breakdown).
import type { Verdict } from '../verdicts';
import { snapScore, verdictForScore } from './verdict';
import type { RejectedRecord } from './evidence';

export interface ScoreResult<B> {
  /** The algorithm's overall score, unrounded (0–100, up to 120 for early milestones). Decides the verdict. */
  score: number;
  /** `Math.round(score)`: the seed's `overall_score`, and what the multi-type composite averages. */
  roundedScore: number;
  verdict: Verdict;
  breakdown: B;
}

/** Which records did not count, and why; shared by every breakdown. */
export interface RecordAccounting {
  recordsCounted: number;
  recordsRejected: RejectedRecord[];
}

export function scoreResult<B>(raw: number, breakdown: B): ScoreResult<B> {
  const score = snapScore(raw);
  return { score, roundedScore: Math.round(score), verdict: verdictForScore(score), breakdown };
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? snapScore((part / whole) * 100) : 0;
}
