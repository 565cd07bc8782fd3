import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { drawableAgents, isDrawable, seatHoldId, seatsAffordable } from '../../workflows/rules/seats';

const P = DEFAULT_PARAMS; // eligibility 100 USDC, bond 10 USDC
const X = '0x' + 'A'.repeat(40);

describe('seats', () => {
  test('drawable while the free stake covers a bond and the whole stake the eligibility minimum', () => {
    assert.equal(isDrawable({ address: X, free: 100_000_000n, seated: 0n }, P), true);
    assert.equal(isDrawable({ address: X, free: 10_000_000n, seated: 90_000_000n }, P), true);
    assert.equal(isDrawable({ address: X, free: 9_999_999n, seated: 90_000_001n }, P), false);
    assert.equal(isDrawable({ address: X, free: 80_000_000n, seated: 10_000_000n }, P), false);
  });

  test('the weight is the free stake, the address normalized', () => {
    assert.deepEqual(drawableAgents([{ address: X, free: 60_000_000n, seated: 40_000_000n }], P), [
      { address: X.toLowerCase(), stake: 60_000_000n },
    ]);
  });

  test('a stake for k seats affords k', () => {
    assert.equal(seatsAffordable(100_000_000n, P.baBond), 10n);
    assert.equal(seatsAffordable(29_999_999n, P.baBond), 2n);
    assert.equal(seatHoldId('c-1', X), `c-1:ba-bond:${X.toLowerCase()}`);
  });
});
