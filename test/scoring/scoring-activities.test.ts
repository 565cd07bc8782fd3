// The automatic verifier activity: one result per machine-checkable criterion.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { createScoringActivities, INVALID_EVIDENCE_FAILURE } from '../../activities/scoring-activities';
import {
  dailyMoltbookCheck,
  dailyMoltbookEvidence,
  supportBotCheck,
  supportBotEvidence,
  threeMilestoneCheck,
  threeMilestoneEvidence,
} from './fixtures';

const { scoreDelivery } = createScoringActivities();
const criteria = [
  'The posts are friendly.',
  { text: 'Post daily for a week', check: dailyMoltbookCheck },
  { text: 'Answer support well', check: supportBotCheck },
  { text: 'Ship in three phases', check: threeMilestoneCheck },
  { text: 'No check here' },
];

describe('scoreDelivery', () => {
  test('scores each checked criterion from its evidence, in criterion order', async () => {
    const out = await scoreDelivery({
      criteria,
      evidence: [
        { criterionIndex: 3, records: threeMilestoneEvidence },
        { criterionIndex: 1, records: dailyMoltbookEvidence },
        { criterionIndex: 2, records: supportBotEvidence },
      ],
      evaluatedAt: '2025-03-01T00:00:00Z',
    });
    assert.equal(out.evaluatedAt, '2025-03-01T00:00:00.000Z');
    assert.deepEqual(
      out.results.map((r) => [r.criterionIndex, r.key, r.checkType, r.roundedScore, r.verdict]),
      [
        [1, 'c2', 'consistency', 90, 'met'],
        [2, 'c3', 'quality', 86, 'met'],
        [3, 'c4', 'time_bound', 100, 'met'],
      ],
    );
    assert.equal(out.results[0]?.breakdown.type, 'consistency');
  });

  test('a checked criterion without evidence is scored on nothing', async () => {
    const out = await scoreDelivery({ criteria, evaluatedAt: '2025-03-01T00:00:00Z' });
    assert.deepEqual(
      out.results.map((r) => [r.key, r.score, r.verdict]),
      [
        ['c2', 20, 'not met'],
        ['c3', 0, 'not met'],
        ['c4', 0, 'not met'],
      ],
    );
  });

  test('the evaluation time cuts off later records', async () => {
    const out = await scoreDelivery({
      criteria,
      evidence: [{ criterionIndex: 3, records: threeMilestoneEvidence }],
      evaluatedAt: '2025-02-12T00:00:00Z',
    });
    const tb = out.results.find((r) => r.key === 'c4')!;
    assert.equal(tb.breakdown.type === 'time_bound' && tb.breakdown.milestones[2]?.status, 'missed');
  });

  test('malformed evidence or evidence for an unchecked criterion fails without retry, naming the field', async () => {
    const reject = async (evidence: unknown, field: string) => {
      await assert.rejects(
        scoreDelivery({ criteria, evidence, evaluatedAt: '2025-03-01T00:00:00Z' }),
        (err) => {
          assert.ok(err instanceof ApplicationFailure);
          assert.equal(err.type, INVALID_EVIDENCE_FAILURE);
          assert.equal(err.nonRetryable, true);
          assert.equal((err.details?.[0] as { errors: { field: string }[] }).errors[0]?.field, field);
          return true;
        },
      );
    };
    await reject([{ criterionIndex: 1, records: [{ timestamp: 5 }] }], 'evidence.0.records.0.timestamp');
    await reject([{ criterionIndex: 0, records: [] }], 'evidence.0.criterionIndex');
    await reject([{ criterionIndex: 4, records: [] }], 'evidence.0.criterionIndex');
  });
});
