import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { QualityCheck } from '../../workflows/rules/machine-checks';
import { scoreQuality } from '../../workflows/rules/scoring/quality';
import { LATER, telegramReply } from './fixtures';

const base: QualityCheck = {
  type: 'quality',
  platform: 'telegram',
  actionType: 'support_response',
  qualityMetrics: { satisfactionThreshold: 4 },
  minimumSamples: 4,
};

describe('scoreQuality', () => {
  test('fewer samples than minimumSamples: 0, not met, no metric scored', () => {
    const r = scoreQuality(base, [telegramReply({ satisfactionRating: 5 })], LATER);
    assert.equal(r.score, 0);
    assert.equal(r.verdict, 'not met');
    assert.equal(r.breakdown.insufficientSamples, true);
    assert.deepEqual(r.breakdown.metrics, {});
  });

  test('satisfaction is averaged over the rated samples only (dividing by all would give 40)', () => {
    const r = scoreQuality(
      base,
      [
        telegramReply({ satisfactionRating: 4 }),
        telegramReply({ satisfactionRating: 4 }),
        telegramReply(),
        telegramReply(),
      ],
      LATER,
    );
    assert.equal(r.breakdown.averageSatisfaction, 4);
    assert.deepEqual(r.breakdown.metrics.satisfaction, { score: 80, weight: 1, passing: 2, of: 2 });
    assert.equal(r.score, 80);
  });

  test('a rating of 0 is a rating', () => {
    const r = scoreQuality(
      base,
      [0, 5, 5, 5].map((s) => telegramReply({ satisfactionRating: s })),
      LATER,
    );
    assert.equal(r.breakdown.averageSatisfaction, 3.75);
    assert.equal(r.score, 75);
  });

  test('satisfaction with no rated sample is not scored; the other metrics carry the weight', () => {
    const check = { ...base, qualityMetrics: { satisfactionThreshold: 4, responseTimeMinutes: 10 } };
    const r = scoreQuality(
      check,
      [5, 5, 5, 20].map((t) => telegramReply({ responseTimeMinutes: t })),
      LATER,
    );
    assert.equal(r.breakdown.satisfactionUnrated, true);
    assert.equal(r.breakdown.metrics.satisfaction, undefined);
    assert.deepEqual(r.breakdown.metrics.responseTime, { score: 75, weight: 1, passing: 3, of: 4 });
    assert.equal(r.score, 75);
  });

  test('only satisfaction enabled and nothing rated: no metric, score 0', () => {
    const r = scoreQuality(base, [telegramReply(), telegramReply(), telegramReply(), telegramReply()], LATER);
    assert.equal(r.score, 0);
    assert.equal(r.breakdown.satisfactionUnrated, true);
  });

  test('format 1 : accuracy 1.5, normalized to 0.4 : 0.6; missing facts fail their metric', () => {
    const check: QualityCheck = {
      ...base,
      actionType: 'consultation',
      qualityMetrics: { requiredFormat: 'structured_advice', technicalAccuracy: true },
    };
    const records = [
      telegramReply({ actionType: 'consultation', format: 'structured_advice', accuracyVerified: true }),
      telegramReply({ actionType: 'consultation', format: 'structured_advice', accuracyVerified: false }),
      telegramReply({ actionType: 'consultation', format: 'free_text' }),
      telegramReply({ actionType: 'consultation' }),
    ];
    const r = scoreQuality(check, records, LATER);
    assert.equal(r.breakdown.metrics.format?.score, 50);
    assert.equal(r.breakdown.metrics.format?.weight, 0.4);
    assert.equal(r.breakdown.metrics.accuracy?.score, 25);
    assert.equal(r.breakdown.metrics.accuracy?.weight, 0.6);
    assert.equal(r.score, 50 * 0.4 + 25 * 0.6);
    assert.equal(r.verdict, 'not met');
  });

  test('length and response time: a sample without the fact fails the metric', () => {
    const check = {
      ...base,
      minimumSamples: 2,
      qualityMetrics: { minimumLength: 100, responseTimeMinutes: 30 },
    };
    const r = scoreQuality(
      check,
      [telegramReply({ contentLength: 100, responseTimeMinutes: 30 }), telegramReply()],
      LATER,
    );
    assert.equal(r.breakdown.metrics.completeness?.score, 50);
    assert.equal(r.breakdown.metrics.responseTime?.score, 50);
    assert.equal(r.score, 50);
  });

  test('records of another platform or action type are not samples', () => {
    const records = [
      telegramReply({ satisfactionRating: 5 }),
      telegramReply({ satisfactionRating: 5, actionType: 'consultation' }),
      telegramReply({ satisfactionRating: 5, chatId: undefined }),
    ];
    const r = scoreQuality({ ...base, minimumSamples: 1 }, records, LATER);
    assert.equal(r.breakdown.samples, 1);
    assert.deepEqual(
      r.breakdown.recordsRejected.map((x) => x.reasons),
      [['action-type-mismatch'], ['missing-field:chatId']],
    );
  });
});
