import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConsistencyCheck } from '../../workflows/rules/machine-checks';
import { scoreConsistency } from '../../workflows/rules/scoring/consistency';
import { LATER, moltbookPost } from './fixtures';

const daily: ConsistencyCheck = {
  type: 'consistency',
  frequency: 'daily',
  durationDays: 7,
  platform: 'moltbook',
  actionType: 'post',
  minimumActions: 3,
};

describe('scoreConsistency', () => {
  test('no record: completion 0, timeliness 100 (no interval), quality 100 (no rules) → 30, not met', () => {
    const r = scoreConsistency(daily, [], LATER);
    assert.equal(r.breakdown.completionRate, 0);
    assert.equal(r.breakdown.timelinessScore, 100);
    assert.equal(r.breakdown.qualityScore, 100);
    assert.equal(r.score, 30);
    assert.equal(r.verdict, 'not met');
  });

  test('no record with content rules: quality 0 → 20', () => {
    const r = scoreConsistency({ ...daily, contentRequirements: { minLength: 10 } }, [], LATER);
    assert.equal(r.score, 20);
  });

  test('completion is capped at 100; extra records still count for timeliness', () => {
    const posts = [1, 2, 3, 4, 5].map((d) => moltbookPost(`2025-02-0${d}T09:00:00Z`));
    const r = scoreConsistency(daily, posts, LATER);
    assert.equal(r.breakdown.completionRate, 100);
    assert.equal(r.breakdown.actionsMissed, 0);
    assert.equal(r.breakdown.intervalsOnTime, 4);
    assert.equal(r.score, 100);
  });

  test('a gap over interval + grace is late: exactly 48 h on time, 48 h + 1 s late', () => {
    const posts = [
      moltbookPost('2025-02-01T00:00:00Z'),
      moltbookPost('2025-02-03T00:00:00Z'),
      moltbookPost('2025-02-05T00:00:01Z'),
    ];
    const r = scoreConsistency(daily, posts, LATER);
    assert.equal(r.breakdown.intervalsOnTime, 1);
    assert.equal(r.breakdown.intervalsLate, 1);
    assert.equal(r.breakdown.timelinessScore, 50);
    assert.equal(r.score, 70 + 10 + 10);
  });

  test('records are taken in time order, whatever their order in the delivery', () => {
    const posts = [
      moltbookPost('2025-02-03T09:00:00Z'),
      moltbookPost('2025-02-01T09:00:00Z'),
      moltbookPost('2025-02-02T09:00:00Z'),
    ];
    assert.equal(scoreConsistency(daily, posts, LATER).breakdown.intervalsOnTime, 2);
  });

  test('grace: omitted is 24 h daily and 48 h weekly; an explicit 0 stays 0', () => {
    assert.equal(scoreConsistency(daily, [], LATER).breakdown.maxIntervalHours, 48);
    const weekly = { ...daily, frequency: 'weekly' as const, actionType: 'post' as const };
    assert.equal(scoreConsistency(weekly, [], LATER).breakdown.maxIntervalHours, 168 + 48);
    assert.equal(
      scoreConsistency({ ...daily, gracePeriodHours: 0 }, [], LATER).breakdown.maxIntervalHours,
      24,
    );
    const custom = { ...daily, frequency: 'custom' as const, intervalHours: 12, gracePeriodHours: 2 };
    assert.equal(scoreConsistency(custom, [], LATER).breakdown.maxIntervalHours, 14);
    const hourly = { ...daily, frequency: 'hourly' as const };
    assert.equal(scoreConsistency(hourly, [], LATER).breakdown.maxIntervalHours, 25);
  });

  test('records that do not count, with their reasons', () => {
    const posts = [
      moltbookPost('2025-02-01T09:00:00Z'),
      { ...moltbookPost('2025-02-02T09:00:00Z'), contentHash: undefined },
      moltbookPost('2025-02-03T09:00:00Z', { platform: 'clawstr' }),
      moltbookPost('2025-02-04T09:00:00Z', { actionType: 'comment' }),
      moltbookPost('2025-04-01T09:00:00Z'),
      { timestamp: '2025-02-05T09:00:00Z' },
    ];
    const r = scoreConsistency(daily, posts, LATER);
    assert.equal(r.breakdown.actionsCounted, 1);
    assert.deepEqual(r.breakdown.recordsRejected, [
      { recordIndex: 1, reasons: ['missing-field:contentHash'] },
      { recordIndex: 2, reasons: ['platform-mismatch'] },
      { recordIndex: 3, reasons: ['action-type-mismatch'] },
      { recordIndex: 4, reasons: ['after-evaluation'] },
      {
        recordIndex: 5,
        reasons: [
          'missing-field:platform',
          'missing-field:actionType',
          'missing-field:actionUrl',
          'missing-field:contentHash',
        ],
      },
    ]);
  });

  test('the same post twice counts once', () => {
    const post = moltbookPost('2025-02-01T09:00:00Z');
    const r = scoreConsistency(daily, [post, { ...post, timestamp: '2025-02-02T09:00:00Z' }], LATER);
    assert.equal(r.breakdown.actionsCounted, 1);
    assert.deepEqual(r.breakdown.recordsRejected, [{ recordIndex: 1, reasons: ['duplicate'] }]);
  });

  test('window: startsAt inclusive, ends inclusive at startsAt + duration + grace', () => {
    const check = { ...daily, durationDays: 2, gracePeriodHours: 0, startsAt: '2025-02-01T00:00:00Z' };
    const posts = [
      moltbookPost('2025-01-31T23:59:59Z'),
      moltbookPost('2025-02-01T00:00:00Z'),
      moltbookPost('2025-02-03T00:00:00Z'),
      moltbookPost('2025-02-03T00:00:01Z'),
    ];
    const r = scoreConsistency(check, posts, LATER);
    assert.equal(r.breakdown.actionsCounted, 2);
    assert.deepEqual(
      r.breakdown.recordsRejected.map((x) => [x.recordIndex, x.reasons]),
      [
        [0, ['outside-window']],
        [3, ['outside-window']],
      ],
    );
  });

  test('content rules: deductions 20 / 30 / 50, case-insensitive terms, a missing fact fails its rule', () => {
    const check: ConsistencyCheck = {
      ...daily,
      minimumActions: 1,
      contentRequirements: { minLength: 100, requiredTags: ['health', 'tips'], forbiddenContent: ['SPAM'] },
    };
    const score = (extra: Parameters<typeof moltbookPost>[1]) =>
      scoreConsistency(check, [moltbookPost('2025-02-01T09:00:00Z', extra)], LATER).breakdown.qualityScore;
    const good = { contentLength: 100, contentTags: ['health', 'tips'], contentText: 'Drink water.' };
    assert.equal(score(good), 100);
    assert.equal(score({ ...good, contentLength: 99 }), 80);
    assert.equal(score({ ...good, contentTags: ['health'] }), 70);
    assert.equal(score({ ...good, contentText: 'Buy spam now' }), 50);
    assert.equal(score({ contentTags: ['health', 'tips'], contentText: 'ok' }), 80);
    assert.equal(score({ contentLength: 100, contentTags: ['health', 'tips'] }), 50);
    assert.equal(score({ contentLength: 1, contentText: 'spam' }), 0);
  });
});
