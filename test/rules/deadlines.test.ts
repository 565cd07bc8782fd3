import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import {
  isBeforeDeadline,
  nextDeadline,
  votingWindowEnd,
  type DeadlineState,
} from '../../workflows/rules/deadlines';
import { HOUR } from '../support/fixtures';

const deadlines = { match: 100, withdrawal: 200, delivery: 300, review: 400 };
const state = (over: Partial<DeadlineState>): DeadlineState => ({
  status: 'created',
  verificationMode: 'privacy-preserving',
  deadlines,
  votingEndsAt: null,
  recruitmentRetryAt: null,
  ...over,
});

describe('isBeforeDeadline', () => {
  test('open strictly before the instant; closed at and after it', () => {
    assert.equal(isBeforeDeadline(199, 200), true);
    assert.equal(isBeforeDeadline(200, 200), false);
    assert.equal(isBeforeDeadline(201, 200), false);
  });
});

describe('nextDeadline', () => {
  test('created: the match deadline', () => {
    assert.deepEqual(nextDeadline(state({}), 0), { kind: 'match', at: 100 });
  });

  test('matched: the withdrawal deadline until it passes, then the delivery deadline', () => {
    assert.deepEqual(nextDeadline(state({ status: 'matched' }), 199), { kind: 'withdrawal', at: 200 });
    assert.deepEqual(nextDeadline(state({ status: 'matched' }), 200), { kind: 'delivery', at: 300 });
    assert.deepEqual(nextDeadline(state({ status: 'matched' }), 350), { kind: 'delivery', at: 300 });
  });

  test('under review, privacy-preserving: the review deadline', () => {
    assert.deepEqual(nextDeadline(state({ status: 'under-review' }), 310), { kind: 'review', at: 400 });
  });

  test('under review, standard: the end of the voting window once a panel is drawn', () => {
    const standard = {
      status: 'under-review',
      verificationMode: 'standard',
      deadlines: { ...deadlines, review: null },
    } as const;
    assert.equal(nextDeadline(state(standard), 310), null);
    assert.deepEqual(nextDeadline(state({ ...standard, votingEndsAt: 999 }), 310), {
      kind: 'voting',
      at: 999,
    });
  });

  test('disputed: the end of the voting window', () => {
    assert.deepEqual(nextDeadline(state({ status: 'disputed', votingEndsAt: 777 }), 410), {
      kind: 'voting',
      at: 777,
    });
  });

  test('resolved and terminal statuses: none', () => {
    for (const status of [
      'resolved',
      'settled-fully-met',
      'cancelled-absent',
      'cancelled-by-client',
    ] as const) {
      assert.equal(nextDeadline(state({ status, votingEndsAt: 5 }), 0), null, status);
    }
  });

  test('a privacy-preserving contract without a review deadline is a bug', () => {
    assert.throws(() =>
      nextDeadline(state({ status: 'under-review', deadlines: { ...deadlines, review: null } }), 0),
    );
  });
});

describe('votingWindowEnd', () => {
  test('drawn at + baVotingWindow (72 h by default)', () => {
    assert.equal(votingWindowEnd(1_000, DEFAULT_PARAMS), 1_000 + 72 * HOUR);
  });
});
