import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../workflows/rules/address';
import { checkBallot, type BallotCheck } from '../../workflows/rules/ballot';

const A = ('0x' + 'a'.repeat(40)) as Address;
const B = ('0x' + 'b'.repeat(40)) as Address;
const X = ('0x' + 'e'.repeat(40)) as Address;
const base: BallotCheck = {
  panel: [A, B],
  alreadyVoted: [B],
  voter: A,
  verdictCount: 3,
  criteriaCount: 3,
  now: 999,
  windowEndsAt: 1000,
};

describe('checkBallot', () => {
  test('a panel member voting once, in time, on every criterion is accepted', () => {
    assert.equal(checkBallot(base), null);
  });
  test('an agent not on the panel is rejected', () => {
    assert.equal(checkBallot({ ...base, voter: X })?.code, 'not_on_panel');
  });
  test('a second call is rejected', () => {
    assert.equal(checkBallot({ ...base, voter: B })?.code, 'already_voted');
  });
  test('a call at the end of the window or later is rejected', () => {
    assert.equal(checkBallot({ ...base, now: 1000 })?.code, 'window_closed');
    assert.equal(checkBallot({ ...base, now: 5000 })?.code, 'window_closed');
  });
  test('a verdict count that is not one per criterion is rejected', () => {
    assert.equal(checkBallot({ ...base, verdictCount: 2 })?.code, 'wrong_length');
  });
});
