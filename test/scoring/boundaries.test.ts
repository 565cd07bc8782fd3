// Verdict thresholds (docs/protocol.md §10): ≥ 70 met, < 40 not met, otherwise unclear — on the mapping and
// on real algorithm outputs just under and at each threshold.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { QualityCheck } from '../../workflows/rules/machine-checks';
import { scoreConsistency } from '../../workflows/rules/scoring/consistency';
import { scoreQuality } from '../../workflows/rules/scoring/quality';
import { snapScore, verdictForScore } from '../../workflows/rules/scoring/verdict';
import { LATER, moltbookPost, telegramReply } from './fixtures';

describe('verdictForScore', () => {
  const cases: [number, string][] = [
    [120, 'met'],
    [70, 'met'],
    [69.999999, 'unclear'],
    [69.5, 'unclear'],
    [40, 'unclear'],
    [39.999999, 'not met'],
    [0, 'not met'],
  ];
  for (const [score, verdict] of cases) {
    test(`${score} → ${verdict}`, () => assert.equal(verdictForScore(score), verdict));
  }

  test('a non-finite score is refused', () => {
    assert.throws(() => verdictForScore(NaN), RangeError);
  });

  test('snapScore removes binary noise only', () => {
    assert.equal((4 / 7) * 100 * 0.7, 39.99999999999999);
    assert.equal(snapScore((4 / 7) * 100 * 0.7), 40);
    assert.equal(snapScore(69.9999), 69.9999);
  });
});

describe('algorithm scores at the thresholds', () => {
  // Response time only: the score is the share of samples answered in time.
  const check: QualityCheck = {
    type: 'quality',
    platform: 'telegram',
    actionType: 'support_response',
    qualityMetrics: { responseTimeMinutes: 30 },
    minimumSamples: 1000,
  };
  const samples = (onTime: number) =>
    Array.from({ length: 1000 }, (_, i) => telegramReply({ responseTimeMinutes: i < onTime ? 5 : 60 }));

  const cases: [number, number, string][] = [
    [700, 70, 'met'],
    [699, 69.9, 'unclear'],
    [400, 40, 'unclear'],
    [399, 39.9, 'not met'],
  ];
  for (const [onTime, score, verdict] of cases) {
    test(`quality ${onTime}/1000 on time → ${score} → ${verdict}`, () => {
      const r = scoreQuality(check, samples(onTime), LATER);
      assert.equal(r.score, score);
      assert.equal(r.verdict, verdict);
    });
  }

  test('a 69.9 score shows roundedScore 70 but stays unclear (the verdict uses the unrounded score)', () => {
    const r = scoreQuality(check, samples(699), LATER);
    assert.equal(r.roundedScore, 70);
    assert.equal(r.verdict, 'unclear');
  });

  test('consistency 4 of 7 daily posts, all on time, no content rules: exactly 70 → met', () => {
    const posts = [1, 2, 3, 4].map((d) => moltbookPost(`2025-02-0${d}T09:00:00Z`));
    const r = scoreConsistency(
      {
        type: 'consistency',
        frequency: 'daily',
        durationDays: 7,
        platform: 'moltbook',
        actionType: 'post',
        minimumActions: 7,
      },
      posts,
      LATER,
    );
    assert.equal(r.score, 70);
    assert.equal(r.verdict, 'met');
  });
});
