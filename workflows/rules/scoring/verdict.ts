// From a 0..120 score to a criterion verdict (docs/protocol.md §10): ≥ 70 met, < 40 not met, otherwise unclear.
import type { Verdict } from '../verdicts';

export const MET_THRESHOLD = 70;
export const NOT_MET_BELOW = 40;

/**
 * Removes binary floating-point noise (4/7 × 100 × 0.7 is 39.99999999999999) so a score that is
 * exactly 70 or 40 in decimal lands on its threshold. Nine decimals: far below any real difference.
 */
export function snapScore(raw: number): number {
  const snapped = Math.round(raw * 1e9) / 1e9;
  return Object.is(snapped, -0) ? 0 : snapped;
}

export function verdictForScore(score: number): Verdict {
  if (!Number.isFinite(score)) throw new RangeError(`score must be a finite number, got ${score}`);
  if (score >= MET_THRESHOLD) return 'met';
  if (score < NOT_MET_BELOW) return 'not met';
  return 'unclear';
}
