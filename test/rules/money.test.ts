import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  amountSchema,
  bps,
  formatUsdc,
  fromWire,
  positiveAmountSchema,
  ratio,
  toWire,
} from '../../workflows/rules/money';

describe('amountSchema', () => {
  test('parses canonical decimal strings to bigint', () => {
    assert.equal(amountSchema.parse('2500000'), 2_500_000n);
    assert.equal(amountSchema.parse('0'), 0n);
    assert.equal(amountSchema.parse('999999999999999999'), 999_999_999_999_999_999n);
  });

  for (const bad of ['', '+1', '-1', '1.5', '1e6', '01', ' 1', '1 ', '0x10', '1000000000000000000']) {
    test(`refuses ${JSON.stringify(bad)}`, () => {
      assert.equal(amountSchema.safeParse(bad).success, false);
    });
  }

  test('refuses numbers with a message saying a decimal string is expected', () => {
    const result = amountSchema.safeParse(2500000);
    assert.equal(result.success, false);
    assert.match(result.error!.issues[0]!.message, /decimal string/);
  });

  test('positiveAmountSchema refuses zero', () => {
    assert.equal(positiveAmountSchema.safeParse('0').success, false);
    assert.equal(positiveAmountSchema.parse('1'), 1n);
  });
});

describe('wire form', () => {
  test('toWire and fromWire round-trip', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }), (n) => {
        assert.equal(fromWire(toWire(n)), n);
      }),
    );
  });

  test('toWire refuses a negative amount; fromWire names the bad input', () => {
    assert.throws(() => toWire(-1n), RangeError);
    assert.throws(() => fromWire('1.0'), /invalid amount "1.0"/);
  });
});

describe('bps', () => {
  test('rounds down', () => {
    assert.equal(bps(10_000n, 2000), 2000n);
    assert.equal(bps(9_999n, 2000), 1999n); // 1999.8
    assert.equal(bps(1n, 9999), 0n);
    assert.equal(bps(7n, 10_000), 7n);
    assert.equal(bps(7n, 0), 0n);
  });

  test('refuses basis points outside [0, 10000] and negative amounts', () => {
    assert.throws(() => bps(1n, 10_001), RangeError);
    assert.throws(() => bps(1n, -1), RangeError);
    assert.throws(() => bps(-1n, 1), RangeError);
  });

  test('share never exceeds the amount and is the floor', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.integer({ min: 0, max: 10_000 }), (n, b) => {
        const share = bps(n, b);
        assert.ok(share * 10_000n <= n * BigInt(b));
        assert.ok((share + 1n) * 10_000n > n * BigInt(b));
      }),
    );
  });
});

describe('ratio', () => {
  test('floor(amount × num / den)', () => {
    assert.equal(ratio(100n, 1, 3), 33n);
    assert.equal(ratio(100n, 2, 3), 66n);
    assert.equal(ratio(100n, 3, 3), 100n);
    assert.equal(ratio(100n, 0, 3), 0n);
  });

  test('refuses a zero denominator or a numerator outside [0, den]', () => {
    assert.throws(() => ratio(1n, 0, 0), RangeError);
    assert.throws(() => ratio(1n, 4, 3), RangeError);
    assert.throws(() => ratio(1n, 1.5, 3), RangeError);
  });
});

describe('formatUsdc', () => {
  test('shows minor units as USDC with 6 decimals, trailing zeros dropped', () => {
    assert.equal(formatUsdc(2_500_000n), '2.5');
    assert.equal(formatUsdc(10_000_000n), '10');
    assert.equal(formatUsdc(1n), '0.000001');
    assert.equal(formatUsdc(0n), '0');
    assert.equal(formatUsdc(1_234_567_890n), '1234.56789');
  });
});
