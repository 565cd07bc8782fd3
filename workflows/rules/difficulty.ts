// Kinetix difficulty and partial completion (docs/protocol.md §10, docs/reputation.md §2): the seed's
// `calculateDifficulty` over each machine-checked criterion, the contract taking the highest; and
// `calculatePartialReward` mapped onto reputation credit, counted in halves so nothing is a float.
import type { MachineCheck } from './machine-checks';
import { MET_THRESHOLD, NOT_MET_BELOW } from './scoring/verdict';
import type { Verdict } from './verdicts';

export const DIFFICULTY_LEVELS = ['trivial', 'standard', 'challenging', 'expert'] as const;
export type DifficultyLevel = (typeof DIFFICULTY_LEVELS)[number];

/** The seed's reward multipliers: 1, 2, 4, 8. */
export const DIFFICULTY_MULTIPLIER: Readonly<Record<DifficultyLevel, number>> = {
  trivial: 1,
  standard: 2,
  challenging: 4,
  expert: 8,
};

function enabledQualityMetrics(check: MachineCheck): number {
  if (check.type !== 'quality') return 0;
  // An enabled metric counts; `technicalAccuracy: false` is a disabled one (docs/scoring.md #4).
  return Object.entries(check.qualityMetrics).filter(([, v]) => v !== undefined && v !== false).length;
}

/**
 * The seed's difficulty score of one check. `platforms` is the number of distinct platforms the
 * contract's machine checks name: a check names one, the seed's commitment could name several.
 */
export function difficultyScore(check: MachineCheck, platforms: number): number {
  const days =
    (check.type === 'time_bound' ? undefined : check.durationDays) ??
    (check.type === 'time_bound' ? check.milestones.length : undefined) ??
    1;
  let score = days <= 3 ? 1 : days <= 14 ? 2 : days <= 30 ? 3 : 4;
  if (check.type === 'consistency') {
    if (check.frequency === 'hourly') score += 2;
    else if (check.frequency === 'daily') score += 1;
  }
  score += Math.min(2, enabledQualityMetrics(check));
  if (platforms > 1) score += 1;
  return score;
}

export function levelForScore(score: number): DifficultyLevel {
  if (score <= 2) return 'trivial';
  if (score <= 4) return 'standard';
  if (score <= 6) return 'challenging';
  return 'expert';
}

/** The contract's level: the highest of its machine-checked criteria; `trivial` without any. */
export function contractDifficulty(criteria: readonly { check?: MachineCheck }[]): DifficultyLevel {
  const checks = criteria.flatMap((c) => (c.check === undefined ? [] : [c.check]));
  const platforms = new Set(checks.map((c) => (c.type === 'time_bound' ? 'time_bound' : c.platform)));
  // A time-bound check names no platform: it does not make a contract multi-platform.
  platforms.delete('time_bound');
  const top = Math.max(0, ...checks.map((c) => difficultyScore(c, platforms.size)));
  return checks.length === 0 ? 'trivial' : levelForScore(top);
}

/** The seed's `calculatePartialReward` as a fraction of the full reward, in halves: 2, 1 or 0. */
export function partialRewardHalves(score: number): 0 | 1 | 2 {
  if (score >= MET_THRESHOLD) return 2;
  if (score >= NOT_MET_BELOW) return 1;
  return 0;
}

/**
 * One criterion's credit to its Worker, in halves. A machine-checked criterion earns by its score
 * (full at ≥ 70, half at 40–69, none below) unless its final outcome is `not met`: the panel or the
 * Client overrules self-reported evidence, never the other way round. Any other criterion: full when met.
 */
export function criterionCreditHalves(outcome: Verdict, score: number | null): 0 | 1 | 2 {
  if (outcome === 'not met') return 0;
  if (score === null) return outcome === 'met' ? 2 : 0;
  return partialRewardHalves(score);
}
