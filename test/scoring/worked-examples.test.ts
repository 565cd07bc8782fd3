// The scoring worked examples (docs/scoring.md §4), scored by the algorithms under our decisions. Each
// printed figure that the algorithm does not give is pinned next to the algorithm's own figure;
// docs/scoring.md lists them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreConsistency } from '../../workflows/rules/scoring/consistency';
import { scoreQuality } from '../../workflows/rules/scoring/quality';
import { scoreTimeBound } from '../../workflows/rules/scoring/time-bound';
import {
  LATER,
  dailyMoltbookCheck,
  dailyMoltbookEvidence,
  supportBotCheck,
  supportBotEvidence,
  threeMilestoneCheck,
  threeMilestoneEvidence,
} from './fixtures';

const fixed = (n: number | undefined, digits = 3) => n?.toFixed(digits);

describe('worked example: daily Moltbook posts for 7 days', () => {
  const r = scoreConsistency(dailyMoltbookCheck, dailyMoltbookEvidence, LATER);

  test('completion 6/7: the 80-character post counts (content affects quality only)', () => {
    assert.equal(r.breakdown.actionsCounted, 6);
    assert.equal(r.breakdown.actionsMissed, 1);
    assert.equal(fixed(r.breakdown.completionRate), '85.714'); // printed 85.7 — agrees
  });

  test('timeliness: 5 intervals, all within 24 + 24 h — 100, not the printed 5/6 = 83.3', () => {
    assert.equal(r.breakdown.intervalsOnTime + r.breakdown.intervalsLate, 5);
    assert.equal(r.breakdown.intervalsOnTime, 5);
    assert.equal(r.breakdown.maxIntervalHours, 48);
    assert.equal(r.breakdown.timelinessScore, 100);
  });

  test('quality: mean of per-post scores (the short post loses 20) — 96.667, not the printed 83.3', () => {
    assert.equal(r.breakdown.recordsTooShort, 1);
    assert.equal(r.breakdown.recordsMissingTags, 0);
    assert.equal(fixed(r.breakdown.qualityScore), '96.667');
  });

  test('overall 0.7 × 85.714 + 0.2 × 100 + 0.1 × 96.667 = 89.667, not the printed 85.6; met', () => {
    assert.equal(fixed(r.score), '89.667');
    assert.equal(r.roundedScore, 90);
    assert.equal(r.verdict, 'met');
    // The printed formula with the printed inputs does not give the printed 85.6 either:
    assert.equal((85.7 * 0.7 + 83.3 * 0.2 + 83.3 * 0.1).toFixed(2), '84.98');
  });
});

describe('worked example: Telegram support bot, 20 interactions', () => {
  const r = scoreQuality(supportBotCheck, supportBotEvidence, LATER);

  test('metric scores: response 90, completeness 85, satisfaction 4.2 / 5 = 84 (all agree)', () => {
    assert.equal(r.breakdown.samples, 20);
    assert.equal(r.breakdown.metrics.responseTime?.score, 90);
    assert.equal(r.breakdown.metrics.completeness?.score, 85);
    assert.equal(r.breakdown.averageSatisfaction, 4.2);
    assert.equal(r.breakdown.metrics.satisfaction?.score, 84);
  });

  test('weights 1 : 1 : 1.5 normalized to 2/7, 2/7, 3/7', () => {
    assert.equal(fixed(r.breakdown.metrics.responseTime?.weight, 6), (2 / 7).toFixed(6));
    assert.equal(fixed(r.breakdown.metrics.completeness?.weight, 6), (2 / 7).toFixed(6));
    assert.equal(fixed(r.breakdown.metrics.satisfaction?.weight, 6), (3 / 7).toFixed(6));
  });

  test('overall (2·90 + 2·85 + 3·84) / 7 = 86, not the printed equal-weight 86.3; met', () => {
    assert.equal(r.score, 86);
    assert.equal(r.verdict, 'met');
    // Printed: equal weights. The reference's unnormalized getMetricWeights (1/3, 1/3, 1.5/3) gives 100.33.
    assert.equal(((90 + 85 + 84) / 3).toFixed(2), '86.33');
    assert.equal((90 / 3 + 85 / 3 + 84 * 0.5).toFixed(2), '100.33');
  });
});

describe('worked example: three-milestone project, 2 points per late hour', () => {
  const r = scoreTimeBound(threeMilestoneCheck, threeMilestoneEvidence, LATER);
  const [design, prototype, final] = r.breakdown.milestones;

  test('design 2 h early: 100 + 2 × 0.5 = 101 (agrees)', () => {
    assert.deepEqual(design, {
      milestoneId: 'design',
      score: 101,
      status: 'early',
      recordIndex: 0,
      hoursEarly: 2,
    });
  });

  test('prototype at 11 pm is 6 h after the 5 pm deadline, inside its 6 h grace: 100, not the printed 92', () => {
    assert.deepEqual(prototype, { milestoneId: 'prototype', score: 100, status: 'on_time', recordIndex: 1 });
  });

  test('final exactly at the deadline: 100 (agrees)', () => {
    assert.deepEqual(final, { milestoneId: 'final', score: 100, status: 'on_time', recordIndex: 2 });
  });

  test('average (101 + 100 + 100) / 3 = 100.333, not the printed 97.7; met', () => {
    assert.equal(fixed(r.score), '100.333');
    assert.equal(r.roundedScore, 100);
    assert.equal(r.verdict, 'met');
    assert.equal(r.breakdown.completionRate, 100);
    assert.equal(((101 + 92 + 100) / 3).toFixed(1), '97.7');
  });
});
