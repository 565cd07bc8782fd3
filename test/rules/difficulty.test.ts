// Kinetix difficulty and partial credit (docs/reputation.md §2) on the seed's own examples: the
// "Difficulty → Reward Multiplier" table, the three worked examples, `calculatePartialReward`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  contractDifficulty,
  criterionCreditHalves,
  DIFFICULTY_MULTIPLIER,
  difficultyScore,
  levelForScore,
  partialRewardHalves,
} from '../../workflows/rules/difficulty';
import type { ConsistencyCheck, QualityCheck } from '../../workflows/rules/machine-checks';
import { dailyMoltbookCheck, supportBotCheck, threeMilestoneCheck } from '../scoring/fixtures';

const post = (frequency: ConsistencyCheck['frequency'], durationDays: number): ConsistencyCheck => ({
  type: 'consistency',
  frequency,
  durationDays,
  platform: 'moltbook',
  actionType: 'post',
  minimumActions: 3,
});

describe('calculateDifficulty: the seed table', () => {
  test('Trivial: post 3 times in 3 days (3 days → 1, daily → 1: score 2)', () => {
    assert.equal(difficultyScore(post('daily', 3), 1), 2);
    assert.equal(contractDifficulty([{ check: post('daily', 3) }]), 'trivial');
  });
  test('Standard: post daily for 7 days (7 days → 2, daily → 1: score 3)', () => {
    assert.equal(contractDifficulty([{ check: post('daily', 7) }]), 'standard');
  });
  test('Challenging: quality consultations for 30 days, two metrics (3 + 2 = 5)', () => {
    const consult: QualityCheck = {
      type: 'quality',
      platform: 'telegram',
      actionType: 'consultation',
      qualityMetrics: { responseTimeMinutes: 60, minimumLength: 200 },
      minimumSamples: 10,
      durationDays: 30,
    };
    assert.equal(contractDifficulty([{ check: consult }]), 'challenging');
  });
  test('Expert: multi-platform, multi-metric, 60+ days (4 + 2 + 1 = 7)', () => {
    const quality: QualityCheck = { ...supportBotCheck, durationDays: 60 };
    const onMoltbook = post('weekly', 60);
    assert.equal(difficultyScore(quality, 2), 7);
    assert.equal(contractDifficulty([{ check: quality }, { check: onMoltbook }]), 'expert');
    // One platform: the same quality check is only challenging.
    assert.equal(contractDifficulty([{ check: quality }]), 'challenging');
  });
  test('score ranges map to levels; multipliers 1/2/4/8', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 9].map(levelForScore), [
      'trivial',
      'trivial',
      'standard',
      'standard',
      'challenging',
      'challenging',
      'expert',
      'expert',
    ]);
    assert.deepEqual(Object.values(DIFFICULTY_MULTIPLIER), [1, 2, 4, 8]);
  });
  test('hourly adds 2; weekly and custom add nothing', () => {
    assert.equal(difficultyScore(post('hourly', 2), 1), 3);
    assert.equal(difficultyScore(post('weekly', 2), 1), 1);
  });
});

describe('calculateDifficulty: the worked examples', () => {
  test('daily Moltbook posts for 7 days: standard', () => {
    assert.equal(contractDifficulty([{ check: dailyMoltbookCheck }]), 'standard');
  });
  test('Telegram support bot, 30 days, three metrics (capped at 2): challenging', () => {
    assert.equal(difficultyScore(supportBotCheck, 1), 5);
  });
  test('three milestones: days = milestone count (3) → trivial', () => {
    assert.equal(difficultyScore(threeMilestoneCheck, 1), 1);
    assert.equal(contractDifficulty([{ check: threeMilestoneCheck }]), 'trivial');
  });
  test('the highest criterion decides; text criteria are ignored; none → trivial', () => {
    assert.equal(
      contractDifficulty([{}, { check: threeMilestoneCheck }, { check: supportBotCheck }]),
      'challenging',
    );
    assert.equal(contractDifficulty([{}, {}]), 'trivial');
  });
  test('a disabled metric (technicalAccuracy: false) does not count', () => {
    const q: QualityCheck = {
      ...supportBotCheck,
      qualityMetrics: { minimumLength: 10, technicalAccuracy: false },
    };
    assert.equal(difficultyScore(q, 1), 4);
  });
});

describe('calculatePartialReward → credit in halves', () => {
  test('≥ 70 full, 40–69 half, < 40 none (unrounded comparisons)', () => {
    assert.deepEqual(
      [120, 85.6, 70, 69.999, 50, 40, 39.999, 0].map(partialRewardHalves),
      [2, 2, 2, 1, 1, 1, 0, 0],
    );
  });
  test('a machine-checked criterion earns by its score unless its final outcome is not met', () => {
    assert.equal(criterionCreditHalves('met', 55), 1);
    assert.equal(criterionCreditHalves('unclear', 55), 1);
    assert.equal(criterionCreditHalves('met', 30), 0);
    assert.equal(criterionCreditHalves('not met', 90), 0);
  });
  test('any other criterion: full when met, none otherwise', () => {
    assert.equal(criterionCreditHalves('met', null), 2);
    assert.equal(criterionCreditHalves('unclear', null), 0);
    assert.equal(criterionCreditHalves('not met', null), 0);
  });
});
