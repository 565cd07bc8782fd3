import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TimeBoundCheck } from '../../workflows/rules/machine-checks';
import { scoreTimeBound } from '../../workflows/rules/scoring/time-bound';
import { LATER } from './fixtures';

const one = (
  extra: Partial<TimeBoundCheck> = {},
  milestone: Partial<TimeBoundCheck['milestones'][number]> = {},
): TimeBoundCheck => ({
  type: 'time_bound',
  milestones: [{ milestoneId: 'm1', deadline: '2025-02-05T17:00:00Z', ...milestone }],
  ...extra,
});
const at = (iso: string) => [{ milestoneId: 'm1', timestamp: iso }];

describe('scoreTimeBound', () => {
  test('a missed milestone scores 0 and is not completed', () => {
    const check: TimeBoundCheck = {
      type: 'time_bound',
      milestones: [
        { milestoneId: 'a', deadline: '2025-02-05T17:00:00Z' },
        { milestoneId: 'b', deadline: '2025-02-06T17:00:00Z' },
      ],
    };
    const r = scoreTimeBound(check, [{ milestoneId: 'a', timestamp: '2025-02-05T17:00:00Z' }], LATER);
    assert.deepEqual(r.breakdown.milestones[1], { milestoneId: 'b', score: 0, status: 'missed' });
    assert.equal(r.score, 50);
    assert.equal(r.verdict, 'unclear');
    assert.equal(r.breakdown.milestonesCompleted, 1);
    assert.equal(r.breakdown.completionRate, 50);
  });

  test('late after grace loses penaltyPerLateHour per hour (default 1)', () => {
    assert.equal(scoreTimeBound(one({ penaltyPerLateHour: 2 }), at('2025-02-06T03:00:00Z'), LATER).score, 80);
    assert.equal(scoreTimeBound(one(), at('2025-02-06T03:00:00Z'), LATER).score, 90);
    const graced = scoreTimeBound(one({}, { gracePeriodHours: 6 }), at('2025-02-06T03:00:00Z'), LATER);
    assert.equal(graced.breakdown.milestones[0]?.hoursLate, 4);
    assert.equal(graced.score, 96);
  });

  test('an explicit penalty of 0 stays 0 (a `|| 1` default would make it 1)', () => {
    assert.equal(
      scoreTimeBound(one({ penaltyPerLateHour: 0 }), at('2025-02-09T17:00:00Z'), LATER).score,
      100,
    );
  });

  test('the penalty bottoms out at 0, and such a milestone is not completed', () => {
    const r = scoreTimeBound(one({ penaltyPerLateHour: 10 }), at('2025-02-07T17:00:00Z'), LATER);
    assert.equal(r.score, 0);
    assert.equal(r.breakdown.milestones[0]?.status, 'late');
    assert.equal(r.breakdown.milestonesCompleted, 0);
  });

  test('early bonus 0.5 per hour, at most 20; none when early completion is not allowed', () => {
    assert.equal(scoreTimeBound(one(), at('2025-02-05T07:00:00Z'), LATER).score, 105);
    assert.equal(scoreTimeBound(one(), at('2025-02-01T17:00:00Z'), LATER).score, 120);
    const noBonus = scoreTimeBound(one({ allowEarlyCompletion: false }), at('2025-02-01T17:00:00Z'), LATER);
    assert.equal(noBonus.score, 100);
    assert.equal(noBonus.breakdown.milestones[0]?.status, 'early');
  });

  test('milestone scores are rounded: 30 min late at 1/h → 99.5 → 100', () => {
    assert.equal(scoreTimeBound(one(), at('2025-02-05T17:30:00Z'), LATER).score, 100);
    assert.equal(scoreTimeBound(one(), at('2025-02-05T18:36:00Z'), LATER).score, 98);
  });

  test('the earliest valid delivery of a milestone is the one scored', () => {
    const r = scoreTimeBound(
      one(),
      [
        { milestoneId: 'm1', timestamp: '2025-02-06T17:00:00Z' },
        { milestoneId: 'm1', timestamp: '2025-02-05T17:00:00Z' },
      ],
      LATER,
    );
    assert.deepEqual(r.breakdown.milestones[0], {
      milestoneId: 'm1',
      score: 100,
      status: 'on_time',
      recordIndex: 1,
    });
  });

  test('unknown milestones, a wrong deliverable, and records after the evaluation do not count', () => {
    const check = one({}, { requiredDeliverable: 'design_file' });
    const r = scoreTimeBound(
      check,
      [
        { milestoneId: 'zz', timestamp: '2025-02-05T12:00:00Z' },
        { milestoneId: 'm1', timestamp: '2025-02-05T12:00:00Z', deliverable: 'demo_link' },
        { milestoneId: 'm1', timestamp: '2025-02-05T12:00:00Z' },
        { milestoneId: 'm1', timestamp: '2025-02-05T12:00:00Z', deliverable: 'design_file' },
      ],
      Date.parse('2025-02-05T11:00:00Z'),
    );
    assert.equal(r.score, 0);
    assert.deepEqual(
      r.breakdown.recordsRejected.map((x) => x.reasons),
      [
        ['unknown-milestone', 'after-evaluation'],
        ['deliverable-mismatch', 'after-evaluation'],
        ['deliverable-mismatch', 'after-evaluation'],
        ['after-evaluation'],
      ],
    );
  });
});
