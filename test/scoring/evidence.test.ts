// Evidence records: the delivery's shape, and the required fields per platform.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConsistencyCheck, Platform } from '../../workflows/rules/machine-checks';
import {
  REQUIRED_FIELDS_BY_PLATFORM,
  deliveryEvidenceSchema,
  evidenceCriteriaErrors,
  screenRecords,
  type EvidenceRecord,
} from '../../workflows/rules/scoring/evidence';
import { fieldErrorsFromZod } from '../../workflows/rules/field-errors';
import { LATER, dailyMoltbookCheck, supportBotCheck } from './fixtures';

const complete: Record<Platform, EvidenceRecord> = {
  moltbook: { actionUrl: 'https://m/p/1', contentHash: 'h' },
  clawstr: { eventId: 'e1', signature: 'sig' },
  telegram: { messageId: '42', chatId: 'c' },
  github: { commitHash: 'abc123', repoUrl: 'https://github.com/a/b' },
  onchain: { txHash: '0xdead', blockNumber: 0 },
  api: { requestId: 'r1' },
};
const actionOn: Record<Platform, ConsistencyCheck['actionType']> = {
  moltbook: 'post',
  clawstr: 'post',
  telegram: 'message',
  github: 'commit',
  onchain: 'transaction',
  api: 'message',
};

describe('required fields per platform (seed EVIDENCE_REQUIREMENTS)', () => {
  for (const platform of Object.keys(complete) as Platform[]) {
    test(`${platform}: ${REQUIRED_FIELDS_BY_PLATFORM[platform].join(', ')}`, () => {
      const check: ConsistencyCheck = { ...dailyMoltbookCheck, platform, actionType: actionOn[platform] };
      delete check.contentRequirements;
      const record: EvidenceRecord = {
        platform,
        actionType: actionOn[platform],
        timestamp: '2025-02-01T09:00:00Z',
        ...complete[platform],
      };
      assert.equal(screenRecords(check, [record], LATER).counted.length, 1);
      for (const field of REQUIRED_FIELDS_BY_PLATFORM[platform]) {
        const without = { ...record, [field]: undefined };
        assert.deepEqual(screenRecords(check, [without], LATER).rejected, [
          { recordIndex: 0, reasons: [`missing-field:${field}`] },
        ]);
      }
    });
  }
});

describe('deliveryEvidenceSchema', () => {
  test('accepts entries by criterion index', () => {
    const evidence = [
      { criterionIndex: 0, records: [{ milestoneId: 'a', timestamp: '2025-02-01T09:00:00+01:00' }] },
    ];
    assert.deepEqual(deliveryEvidenceSchema.parse(evidence), evidence);
  });

  test('errors name the field, unknown fields included', () => {
    const r = deliveryEvidenceSchema.safeParse([
      { criterionIndex: 0, records: [{ timestamp: 'yesterday', password: 'x', contentLength: -1 }] },
      { criterionIndex: 0, records: [] },
      { criterionIndex: 10, records: 'none' },
    ]);
    assert.equal(r.success, false);
    assert.deepEqual(
      fieldErrorsFromZod(r.error!, 'evidence')
        .map((e) => e.field)
        .sort(),
      [
        'evidence.0.records.0.contentLength',
        'evidence.0.records.0.password',
        'evidence.0.records.0.timestamp',
        'evidence.2.criterionIndex',
        'evidence.2.records',
      ],
    );
  });

  test('a duplicate criterion index is refused', () => {
    const r = deliveryEvidenceSchema.safeParse([
      { criterionIndex: 1, records: [] },
      { criterionIndex: 1, records: [] },
    ]);
    assert.deepEqual(
      fieldErrorsFromZod(r.error!).map((e) => e.field),
      ['1.criterionIndex'],
    );
  });
});

describe('evidenceCriteriaErrors', () => {
  test('evidence must point at a criterion that exists and carries a check', () => {
    const checks = [undefined, supportBotCheck];
    const evidence = [
      { criterionIndex: 0, records: [] },
      { criterionIndex: 1, records: [] },
      { criterionIndex: 2, records: [] },
    ];
    assert.deepEqual(evidenceCriteriaErrors(evidence, checks), [
      { field: 'evidence.0.criterionIndex', message: 'criterion 0 has no machine check' },
      { field: 'evidence.2.criterionIndex', message: 'no criterion 2 (the contract has 2)' },
    ]);
  });
});
