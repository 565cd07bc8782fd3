// The check a criterion may carry, validated at contract creation with field-level errors.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { machineCheckSchema } from '../../workflows/rules/machine-checks';
import { fieldErrorsFromZod } from '../../workflows/rules/field-errors';
import { dailyMoltbookCheck, supportBotCheck, threeMilestoneCheck } from './fixtures';

function errors(input: unknown) {
  const r = machineCheckSchema.safeParse(input);
  assert.equal(r.success, false, 'expected the check to be refused');
  return fieldErrorsFromZod(r.error!).map((e) => e.field);
}

describe('machineCheckSchema', () => {
  test('the worked examples’ commitments are accepted as they are written (camelCase)', () => {
    for (const check of [dailyMoltbookCheck, supportBotCheck, threeMilestoneCheck]) {
      assert.deepEqual(machineCheckSchema.parse(check), check);
    }
    machineCheckSchema.parse({
      type: 'consistency',
      frequency: 'weekly',
      durationDays: 28,
      platform: 'github',
      actionType: 'commit',
      minimumActions: 4,
      gracePeriodHours: 48,
    });
    machineCheckSchema.parse({
      type: 'quality',
      platform: 'telegram',
      actionType: 'consultation',
      qualityMetrics: { minimumLength: 300, requiredFormat: 'structured_advice', technicalAccuracy: true },
      minimumSamples: 10,
      durationDays: 30,
    });
  });

  test('an unknown type names `type`', () => {
    assert.deepEqual(errors({ type: 'vibes' }), ['type']);
  });

  test('each wrong parameter is named', () => {
    assert.deepEqual(errors({ ...dailyMoltbookCheck, minimumActions: 0, durationDays: 'seven' }).sort(), [
      'durationDays',
      'minimumActions',
    ]);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, extra: true }), ['extra']);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, actionType: 'commit' }), ['actionType']);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, frequency: 'custom' }), ['intervalHours']);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, intervalHours: 5 }), ['intervalHours']);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, contentRequirements: {} }), ['contentRequirements']);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, contentRequirements: { requiredTags: [] } }), [
      'contentRequirements.requiredTags',
    ]);
    assert.deepEqual(errors({ ...dailyMoltbookCheck, startsAt: '2025-02-01T00:00:00' }), ['startsAt']);
  });

  test('quality needs an enabled metric; a threshold is out of 5', () => {
    assert.deepEqual(errors({ ...supportBotCheck, qualityMetrics: { technicalAccuracy: false } }), [
      'qualityMetrics',
    ]);
    assert.deepEqual(errors({ ...supportBotCheck, qualityMetrics: { satisfactionThreshold: 6 } }), [
      'qualityMetrics.satisfactionThreshold',
    ]);
    assert.deepEqual(errors({ ...supportBotCheck, minimumSamples: 2.5 }), ['minimumSamples']);
  });

  test('milestones: ids unique, deadlines zoned instants, at least one', () => {
    const [m1, m2] = threeMilestoneCheck.milestones;
    assert.deepEqual(
      errors({ ...threeMilestoneCheck, milestones: [m1, { ...m2, milestoneId: m1!.milestoneId }] }),
      ['milestones.1.milestoneId'],
    );
    assert.deepEqual(errors({ ...threeMilestoneCheck, milestones: [{ ...m1, deadline: 'Feb 5' }] }), [
      'milestones.0.deadline',
    ]);
    assert.deepEqual(errors({ ...threeMilestoneCheck, milestones: [] }), ['milestones']);
    assert.deepEqual(errors({ ...threeMilestoneCheck, penaltyPerLateHour: -1 }), ['penaltyPerLateHour']);
  });
});
