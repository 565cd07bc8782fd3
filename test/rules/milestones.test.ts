// The pure milestone rules (docs/protocol.md §3 "Milestones", §6a): a plan's validation, amounts and
// stake shares by share (rounded down, the last takes the remainder), and the final status summary.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  milestoneAmounts,
  milestonesFinalStatus,
  milestoneStakeShares,
  splitByShares,
  validateMilestonePlan,
  type MilestoneOutcome,
} from '../../workflows/rules/milestones';
import { HOUR } from '../support/fixtures';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const at = (hours: number) => new Date(T0 + hours * HOUR).toISOString();
const PRIVATE = { withdrawal: T0 + 2 * HOUR, verificationMode: 'privacy-preserving' as const };
const STANDARD = { ...PRIVATE, verificationMode: 'standard' as const };

/** `n` milestones, evenly shared (the last takes the rest), each delivered then reviewed an hour later. */
function plan(
  n: number,
  overrides: (m: Record<string, unknown>, i: number) => Record<string, unknown> = (m) => m,
) {
  const share = Math.floor(10_000 / n);
  return Array.from({ length: n }, (_, i) =>
    overrides(
      {
        title: `part ${i + 1}`,
        acceptanceCriteria: [`criterion of part ${i + 1}`],
        shareBps: i === n - 1 ? 10_000 - share * (n - 1) : share,
        deadlines: { delivery: at(3 + 2 * i), review: at(4 + 2 * i) },
      },
      i,
    ),
  );
}

const errorsOf = (raw: unknown, contract: Parameters<typeof validateMilestonePlan>[1] = PRIVATE) => {
  const result = validateMilestonePlan(raw, contract);
  return result.ok ? [] : result.errors.map((e) => e.field);
};

describe('a milestone plan', () => {
  test('2 to 10 milestones, shares summing to 10000, deadlines in order: accepted, deadlines in ms', () => {
    for (const n of [2, 3, 10]) {
      const result = validateMilestonePlan(plan(n), PRIVATE);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.milestones.length, n);
      assert.deepEqual(result.milestones[0]!.deadlines, { delivery: T0 + 3 * HOUR, review: T0 + 4 * HOUR });
      assert.deepEqual(result.milestones[0]!.acceptanceCriteria, [{ text: 'criterion of part 1' }]);
    }
  });

  test('fewer than 2 or more than 10 milestones are refused', () => {
    assert.deepEqual(errorsOf(plan(1, (m) => ({ ...m, shareBps: 10_000 }))), ['milestones']);
    assert.deepEqual(errorsOf(plan(11)), ['milestones']);
    assert.deepEqual(errorsOf('two parts'), ['milestones']);
  });

  test('each milestone holds 1 to 10 non-empty criteria and a title', () => {
    assert.deepEqual(errorsOf(plan(2, (m, i) => (i === 1 ? { ...m, acceptanceCriteria: [] } : m))), [
      'milestones.1.acceptanceCriteria',
    ]);
    const eleven = Array.from({ length: 11 }, (_, k) => `c${k}`);
    assert.deepEqual(errorsOf(plan(2, (m, i) => (i === 0 ? { ...m, acceptanceCriteria: eleven } : m))), [
      'milestones.0.acceptanceCriteria',
    ]);
    assert.deepEqual(errorsOf(plan(2, (m, i) => (i === 0 ? { ...m, title: '  ' } : m))), [
      'milestones.0.title',
    ]);
    assert.deepEqual(errorsOf(plan(2, (m, i) => (i === 0 ? { ...m, price: '1' } : m))), [
      'milestones.0.price',
    ]);
  });

  test('shares must sum to 10000, each an integer of at least 1', () => {
    assert.deepEqual(errorsOf(plan(2, (m) => ({ ...m, shareBps: 4000 }))), ['milestones']);
    assert.deepEqual(errorsOf(plan(2, (m, i) => ({ ...m, shareBps: i === 0 ? 0 : 10_000 }))), [
      'milestones.0.shareBps',
    ]);
    assert.deepEqual(errorsOf(plan(2, (m, i) => ({ ...m, shareBps: i === 0 ? 2500.5 : 7499.5 }))), [
      'milestones.0.shareBps',
      'milestones.1.shareBps',
    ]);
  });

  test('deadlines: withdrawal < m1.delivery < m1.review ≤ m2.delivery < m2.review', () => {
    // The first delivery at the withdrawal deadline: not after it.
    assert.deepEqual(
      errorsOf(plan(2, (m, i) => (i === 0 ? { ...m, deadlines: { delivery: at(2), review: at(4) } } : m))),
      ['milestones.0.deadlines.delivery'],
    );
    // A review at its own delivery.
    assert.deepEqual(
      errorsOf(plan(2, (m, i) => (i === 0 ? { ...m, deadlines: { delivery: at(3), review: at(3) } } : m))),
      ['milestones.0.deadlines.review'],
    );
    // The next delivery exactly at the previous review is allowed; before it is not.
    assert.deepEqual(
      errorsOf(plan(2, (m, i) => (i === 1 ? { ...m, deadlines: { delivery: at(4), review: at(6) } } : m))),
      [],
    );
    assert.deepEqual(
      errorsOf(plan(2, (m, i) => (i === 1 ? { ...m, deadlines: { delivery: at(3.5), review: at(6) } } : m))),
      ['milestones.1.deadlines.delivery'],
    );
  });

  test('a review deadline is required in privacy-preserving mode, optional in standard mode', () => {
    const noReview = plan(3, (m, i) => ({ ...m, deadlines: { delivery: at(3 + i) } }));
    assert.deepEqual(errorsOf(noReview), [
      'milestones.0.deadlines.review',
      'milestones.1.deadlines.review',
      'milestones.2.deadlines.review',
    ]);
    assert.deepEqual(errorsOf(noReview, STANDARD), []);
    // Without reviews each delivery must still come strictly after the previous one.
    const same = plan(2, (m) => ({ ...m, deadlines: { delivery: at(3) } }));
    assert.deepEqual(errorsOf(same, STANDARD), ['milestones.1.deadlines.delivery']);
  });
});

describe('amounts and stake shares by share', () => {
  test('floor(price × shareBps / 10000), the last takes the remainder', () => {
    const three = [{ shareBps: 3333 }, { shareBps: 3333 }, { shareBps: 3334 }];
    assert.deepEqual(milestoneAmounts(2_500_000n, three), [833_250n, 833_250n, 833_500n]);
    assert.deepEqual(milestoneAmounts(100n, three), [33n, 33n, 34n]);
    assert.deepEqual(milestoneAmounts(1n, three), [0n, 0n, 1n]);
    assert.deepEqual(milestoneStakeShares(250_000n, [{ shareBps: 2500 }, { shareBps: 7500 }]), [
      62_500n,
      187_500n,
    ]);
    assert.deepEqual(milestoneStakeShares(100_001n, [{ shareBps: 5000 }, { shareBps: 5000 }]), [
      50_000n,
      50_001n,
    ]);
  });

  test('shares that do not sum to 10000 are refused', () => {
    assert.throws(() => splitByShares(100n, [5000, 4999]), RangeError);
  });

  test('property: the parts sum to the total, each the rounded-down share but the last', () => {
    const shares = fc
      .array(fc.integer({ min: 1, max: 1000 }), { minLength: 2, maxLength: 10 })
      .map((weights) => {
        const total = weights.reduce((a, b) => a + b, 0);
        const raw = weights.map((w) => Math.max(1, Math.floor((w * 10_000) / total)));
        const drift = 10_000 - raw.reduce((a, b) => a + b, 0);
        raw[raw.length - 1]! += drift;
        return raw;
      })
      .filter((raw) => raw.every((s) => s >= 1));
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), shares, (total, s) => {
        const parts = splitByShares(total, s);
        assert.equal(
          parts.reduce((a, b) => a + b, 0n),
          total,
        );
        parts.slice(0, -1).forEach((p, i) => assert.equal(p, (total * BigInt(s[i]!)) / 10_000n));
        assert.ok(parts.every((p) => p >= 0n));
      }),
    );
  });
});

describe('the final status summarises the milestones', () => {
  const met: MilestoneOutcome = { delivered: true, status: 'settled-fully-met', payment: 1000n };
  const partly: MilestoneOutcome = { delivered: true, status: 'settled-partially-met', payment: 500n };
  const none: MilestoneOutcome = { delivered: true, status: 'settled-none-met', payment: 0n };
  const absent: MilestoneOutcome = { delivered: false, status: 'cancelled-absent', payment: 0n };

  test('fully met only when every milestone was', () => {
    assert.equal(milestonesFinalStatus([met, met, met]), 'settled-fully-met');
    assert.equal(milestonesFinalStatus([met, met, partly]), 'settled-partially-met');
    assert.equal(milestonesFinalStatus([met, met, absent]), 'settled-partially-met');
  });

  test('none met when none paid anything', () => {
    assert.equal(milestonesFinalStatus([none, none]), 'settled-none-met');
    assert.equal(milestonesFinalStatus([none, absent, absent]), 'settled-none-met');
    assert.equal(milestonesFinalStatus([none, partly]), 'settled-partially-met');
  });

  test('cancelled only when nothing was delivered: the first milestone’s reason', () => {
    assert.equal(milestonesFinalStatus([absent, absent, absent]), 'cancelled-absent');
    const withdrawn: MilestoneOutcome = { delivered: false, status: 'cancelled-withdrawn', payment: 0n };
    assert.equal(milestonesFinalStatus([withdrawn, absent]), 'cancelled-withdrawn');
  });

  test('property: the summary agrees with the rule for any outcomes', () => {
    const outcome = fc.constantFrom(met, partly, none, absent);
    fc.assert(
      fc.property(fc.array(outcome, { minLength: 2, maxLength: 10 }), (outcomes) => {
        const status = milestonesFinalStatus(outcomes);
        const delivered = outcomes.some((o) => o.delivered);
        assert.equal(status.startsWith('cancelled-'), !delivered);
        assert.equal(
          status === 'settled-fully-met',
          outcomes.every((o) => o === met),
        );
        if (delivered && status === 'settled-none-met') assert.ok(outcomes.every((o) => o.payment === 0n));
      }),
    );
  });
});
