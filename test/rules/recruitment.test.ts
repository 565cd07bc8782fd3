import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextDeadline } from '../../workflows/rules/deadlines';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { afterUnseatedDraw, arbiterVerdictsProblem, MAX_RETRY_MS } from '../../workflows/rules/recruitment';

const MIN = 60_000;
const P = DEFAULT_PARAMS; // 72 h window

describe('recruitment', () => {
  test('retries back off from a minute, doubling, at most an hour apart', () => {
    let r = afterUnseatedDraw(null, 0, P);
    assert.deepEqual(r, { since: 0, attempts: 1, retryAt: MIN, arbiter: false });
    const gaps: number[] = [];
    for (let i = 0; i < 9; i++) {
      const next = afterUnseatedDraw(r, r.retryAt, P);
      gaps.push(next.retryAt - r.retryAt);
      r = next;
    }
    assert.deepEqual(
      gaps.slice(0, 6),
      [2, 4, 8, 16, 32, 60].map((m) => m * MIN),
    );
    assert.ok(gaps.every((g) => g <= MAX_RETRY_MS));
  });

  test('the last retry is the end of the window, which hands the contract to the arbiter', () => {
    let r = afterUnseatedDraw(null, 0, P);
    let draws = 1;
    while (!r.arbiter) {
      r = afterUnseatedDraw(r, r.retryAt, P);
      draws++;
      assert.ok(r.retryAt <= 72 * 60 * MIN);
    }
    assert.equal(r.since, 0);
    assert.ok(draws < 90, `${draws} draws over 72 hours`);
  });

  test('a pending panel makes the next draw the next deadline; a seated one its voting deadline', () => {
    const state = {
      status: 'disputed' as const,
      verificationMode: 'privacy-preserving' as const,
      deadlines: { match: 1, withdrawal: 2, delivery: 3, review: 4 },
      votingEndsAt: null,
      recruitmentRetryAt: 500,
    };
    assert.deepEqual(nextDeadline(state, 0), { kind: 'recruitment', at: 500 });
    assert.deepEqual(nextDeadline({ ...state, votingEndsAt: 900 }, 0), { kind: 'voting', at: 900 });
    assert.equal(nextDeadline({ ...state, recruitmentRetryAt: null }, 0), null);
  });

  test('the arbiter decides every criterion met or not met', () => {
    assert.equal(arbiterVerdictsProblem(['met', 'not met'], 2), null);
    assert.match(arbiterVerdictsProblem(['met'], 2)!, /one verdict per criterion/);
    assert.match(arbiterVerdictsProblem(['met', 'unclear'], 2)!, /verdicts\[1\]/);
    assert.match(arbiterVerdictsProblem('met', 1)!, /one verdict/);
  });
});
