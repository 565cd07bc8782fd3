// The full service agreement worked example (several verification types combined).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreComposite } from '../../workflows/rules/scoring/composite';
import { scoreCheck } from '../../workflows/rules/scoring/score-check';
import { LATER, moltbookPost, telegramReply } from './fixtures';

describe('scoreComposite', () => {
  // Weekly for 28 days, 4 actions: 3 done on time → 0.7 × 75 + 20 + 10 = 82.5 → 83 (rounded, as the reference averages).
  const consistency = scoreCheck(
    {
      type: 'consistency',
      frequency: 'weekly',
      durationDays: 28,
      platform: 'moltbook',
      actionType: 'post',
      minimumActions: 4,
    },
    ['2025-02-01T09:00:00Z', '2025-02-08T09:00:00Z', '2025-02-15T09:00:00Z'].map((t) => moltbookPost(t)),
    LATER,
  );
  // Response time ≤ 60 for 8 of 10, average rating 4 → (80 + 1.5 × 80) / 2.5 = 80.
  const quality = scoreCheck(
    {
      type: 'quality',
      platform: 'telegram',
      actionType: 'support_response',
      qualityMetrics: { responseTimeMinutes: 60, satisfactionThreshold: 4 },
      minimumSamples: 10,
    },
    Array.from({ length: 10 }, (_, i) =>
      telegramReply({ responseTimeMinutes: i < 8 ? 30 : 90, satisfactionRating: 4 }),
    ),
    LATER,
  );
  // The month-end report 10 h late at 1 point per hour → 90.
  const timeBound = scoreCheck(
    {
      type: 'time_bound',
      milestones: [{ milestoneId: 'month_end_report', deadline: '2025-03-01T00:00:00Z' }],
    },
    [{ milestoneId: 'month_end_report', timestamp: '2025-03-01T10:00:00Z' }],
    LATER,
  );

  test('components', () => {
    assert.equal(consistency.score, 82.5);
    assert.equal(consistency.roundedScore, 83);
    assert.equal(quality.score, 80);
    assert.equal(timeBound.score, 90);
  });

  test('0.4 × 83 + 0.4 × 80 + 0.2 × 90 = 83.2, met', () => {
    const r = scoreComposite([
      { name: 'consistency', weight: 0.4, result: consistency },
      { name: 'quality', weight: 0.4, result: quality },
      { name: 'time_bound', weight: 0.2, result: timeBound },
    ]);
    assert.equal(r.score, 83.2);
    assert.equal(r.verdict, 'met');
    assert.deepEqual(r.breakdown.components, [
      { name: 'consistency', roundedScore: 83, weight: 0.4 },
      { name: 'quality', roundedScore: 80, weight: 0.4 },
      { name: 'time_bound', roundedScore: 90, weight: 0.2 },
    ]);
  });

  test('weights are normalized: 2 : 2 : 1 gives the same score', () => {
    const r = scoreComposite([
      { name: 'consistency', weight: 2, result: consistency },
      { name: 'quality', weight: 2, result: quality },
      { name: 'time_bound', weight: 1, result: timeBound },
    ]);
    assert.equal(r.score, 83.2);
  });

  test('no component, a negative weight or all-zero weights are refused', () => {
    assert.throws(() => scoreComposite([]), RangeError);
    assert.throws(() => scoreComposite([{ name: 'q', weight: -1, result: quality }]), RangeError);
    assert.throws(() => scoreComposite([{ name: 'q', weight: 0, result: quality }]), RangeError);
  });
});
