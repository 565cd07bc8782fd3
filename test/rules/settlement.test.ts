import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { auctionMatchRefund, disputeBondFor, splitHold, workerStakeFor } from '../../workflows/rules/holds';
import { DEFAULT_PARAMS, type ProtocolParams } from '../../workflows/rules/params';
import { cancellationFor, paymentFor, settlementFor, tierFor } from '../../workflows/rules/settlement';
import type { Verdict } from '../../workflows/rules/verdicts';

const P = DEFAULT_PARAMS;
const verdicts = (s: string): Verdict[] =>
  [...s].map((c) => (c === 'm' ? 'met' : c === 'n' ? 'not met' : 'unclear'));

describe('payment and tier', () => {
  const cases: [string, bigint, string, bigint][] = [
    // criteria (m met, n not met, u unclear), escrow, tier, payment
    ['mmm', 1000n, 'fully-met', 1000n],
    ['mmu', 1000n, 'fully-met', 1000n],
    ['uuu', 1000n, 'fully-met', 1000n], // resolved = 0 → the whole escrow
    ['mnn', 1000n, 'partially-met', 333n], // floor(1000 / 3)
    ['mmn', 1000n, 'partially-met', 666n], // floor(2000 / 3)
    ['mnu', 1001n, 'partially-met', 500n], // floor(1001 / 2)
    ['nnn', 1000n, 'none-met', 0n],
    ['nuu', 1000n, 'none-met', 0n],
  ];
  for (const [criteria, escrow, tier, payment] of cases) {
    test(`${criteria} with escrow ${escrow}: ${tier}, payment ${payment}`, () => {
      const s = settlementFor({ escrow, workerStake: 100n, disputeBond: null }, verdicts(criteria), P);
      assert.equal(s.tier, tier);
      assert.equal(s.payment, payment);
      assert.equal(s.status, `settled-${tier}`);
    });
  }

  test('paymentFor and tierFor on counts', () => {
    assert.equal(paymentFor(7n, { met: 1, resolved: 3 }), 2n);
    assert.equal(paymentFor(7n, { met: 0, resolved: 0 }), 7n);
    assert.equal(tierFor({ met: 0, resolved: 0 }), 'fully-met');
    assert.equal(tierFor({ met: 0, resolved: 1 }), 'none-met');
  });
});

describe('settlement table of docs/protocol.md §7a', () => {
  const holds = { escrow: 2_500_000n, workerStake: 250_000n, disputeBond: 125_000n };

  test('fully met: escrow to the Worker, stake returned, dispute bond slashed to the Treasury', () => {
    const s = settlementFor(holds, verdicts('mm'), P);
    assert.deepEqual(s.holds, [
      {
        hold: 'escrow',
        owner: 'client',
        amount: 2_500_000n,
        parts: [{ role: 'worker', amount: 2_500_000n }],
      },
      {
        hold: 'workerStake',
        owner: 'worker',
        amount: 250_000n,
        parts: [{ role: 'worker', amount: 250_000n }],
      },
      {
        hold: 'disputeBond',
        owner: 'client',
        amount: 125_000n,
        parts: [{ role: 'treasury', amount: 125_000n }],
      },
    ]);
  });

  test('partially met: payment to the Worker (rounded down), rest to the Client; stake and bond returned', () => {
    const s = settlementFor({ ...holds, escrow: 1_000_001n }, verdicts('mnn'), P);
    assert.deepEqual(s.holds, [
      {
        hold: 'escrow',
        owner: 'client',
        amount: 1_000_001n,
        parts: [
          { role: 'worker', amount: 333_333n },
          { role: 'client', amount: 666_668n },
        ],
      },
      {
        hold: 'workerStake',
        owner: 'worker',
        amount: 250_000n,
        parts: [{ role: 'worker', amount: 250_000n }],
      },
      {
        hold: 'disputeBond',
        owner: 'client',
        amount: 125_000n,
        parts: [{ role: 'client', amount: 125_000n }],
      },
    ]);
  });

  test('none met: escrow back, whole stake slashed 80/20 (Client rounded down), bond returned', () => {
    const s = settlementFor({ ...holds, workerStake: 250_001n }, verdicts('nnu'), P);
    assert.deepEqual(s.holds, [
      {
        hold: 'escrow',
        owner: 'client',
        amount: 2_500_000n,
        parts: [{ role: 'client', amount: 2_500_000n }],
      },
      {
        hold: 'workerStake',
        owner: 'worker',
        amount: 250_001n,
        parts: [
          { role: 'client', amount: 200_000n }, // floor(250001 × 0.8) = 200000
          { role: 'treasury', amount: 50_001n },
        ],
      },
      {
        hold: 'disputeBond',
        owner: 'client',
        amount: 125_000n,
        parts: [{ role: 'client', amount: 125_000n }],
      },
    ]);
  });

  test('without a dispute there is no bond split', () => {
    const s = settlementFor({ ...holds, disputeBond: null }, verdicts('m'), P);
    assert.deepEqual(
      s.holds.map((h) => h.hold),
      ['escrow', 'workerStake'],
    );
  });

  test('counts are reported', () => {
    assert.deepEqual(settlementFor(holds, verdicts('mnuu'), P).counts, {
      total: 4,
      met: 1,
      notMet: 1,
      unclear: 2,
      resolved: 2,
    });
  });

  test('refuses an empty Criteria Met or a missing stake', () => {
    assert.throws(() => settlementFor(holds, [], P), RangeError);
    assert.throws(() => settlementFor({ ...holds, workerStake: null }, verdicts('m'), P), RangeError);
  });
});

describe('cancellations', () => {
  test('by the Client and unmatched: the escrow is refunded', () => {
    for (const reason of ['by-client', 'unmatched'] as const) {
      assert.deepEqual(cancellationFor(reason, { escrow: 900n, workerStake: null }, P), {
        status: `cancelled-${reason}`,
        holds: [{ hold: 'escrow', owner: 'client', amount: 900n, parts: [{ role: 'client', amount: 900n }] }],
      });
    }
  });

  test('withdrawn: 20% of the stake to the Client (rounded down), rest to the Worker, escrow refunded', () => {
    assert.deepEqual(cancellationFor('withdrawn', { escrow: 900n, workerStake: 99n }, P), {
      status: 'cancelled-withdrawn',
      holds: [
        { hold: 'escrow', owner: 'client', amount: 900n, parts: [{ role: 'client', amount: 900n }] },
        {
          hold: 'workerStake',
          owner: 'worker',
          amount: 99n,
          parts: [
            { role: 'client', amount: 19n }, // floor(19.8)
            { role: 'worker', amount: 80n },
          ],
        },
      ],
    });
  });

  test('absent: the whole stake slashed, 80% to the Client (rounded down), rest to the Treasury', () => {
    assert.deepEqual(cancellationFor('absent', { escrow: 900n, workerStake: 99n }, P).holds[1], {
      hold: 'workerStake',
      owner: 'worker',
      amount: 99n,
      parts: [
        { role: 'client', amount: 79n }, // floor(79.2)
        { role: 'treasury', amount: 20n },
      ],
    });
  });

  test('a stake must exist exactly when a Worker was matched', () => {
    assert.throws(
      () => cancellationFor('withdrawn', { escrow: 1n, workerStake: null }, P),
      /must hold a Worker Stake/,
    );
    assert.throws(
      () => cancellationFor('by-client', { escrow: 1n, workerStake: 5n }, P),
      /cannot hold a Worker Stake/,
    );
  });
});

describe('hold amounts', () => {
  test('worker stake and dispute bond round down', () => {
    assert.equal(workerStakeFor(2_500_000n, P), 250_000n);
    assert.equal(workerStakeFor(9n, P), 0n);
    assert.equal(disputeBondFor(2_500_000n, P), 125_000n);
    assert.equal(disputeBondFor(39n, P), 1n);
  });

  test('an auction match refunds the escrow above the winning price', () => {
    assert.deepEqual(auctionMatchRefund(10_000n, 7_500n), { refund: 2_500n, escrow: 7_500n });
    assert.deepEqual(auctionMatchRefund(10_000n, 10_000n), { refund: 0n, escrow: 10_000n });
    assert.throws(() => auctionMatchRefund(10_000n, 10_001n), RangeError);
  });

  test('splitHold refuses parts that do not sum to the hold', () => {
    assert.throws(() => splitHold('escrow', 10n, [{ role: 'client', amount: 9n }]), /sums to 9/);
  });
});

describe('properties', () => {
  const amount = fc.bigInt({ min: 0n, max: 10n ** 18n - 1n });
  const bpsArb = fc.integer({ min: 0, max: 10_000 });
  const params = fc
    .record({ absentSlashClientBps: bpsArb, withdrawalSlashBps: bpsArb })
    .map((o): ProtocolParams => ({ ...P, ...o }));
  const criteria = fc.array(fc.constantFrom<Verdict>('met', 'not met', 'unclear'), {
    minLength: 1,
    maxLength: 10,
  });

  const assertConserved = (holds: { amount: bigint; parts: { amount: bigint }[] }[]) => {
    for (const h of holds) {
      assert.equal(
        h.parts.reduce((s, p) => s + p.amount, 0n),
        h.amount,
      );
      assert.ok(h.parts.every((p) => p.amount > 0n));
    }
  };

  test('settlement: every hold is split exactly, no part negative or zero', () => {
    fc.assert(
      fc.property(
        amount,
        amount,
        fc.option(amount),
        criteria,
        params,
        (escrow, workerStake, disputeBond, c, p) => {
          const s = settlementFor({ escrow, workerStake, disputeBond }, c, p);
          assertConserved(s.holds);
          const total = s.holds.reduce((sum, h) => sum + h.amount, 0n);
          assert.equal(total, escrow + workerStake + (disputeBond ?? 0n));
          // The Worker receives exactly the payment from the escrow, and never more than the escrow.
          const toWorker = s.holds[0]!.parts.find((x) => x.role === 'worker')?.amount ?? 0n;
          assert.equal(toWorker, s.payment);
          assert.ok(s.payment <= escrow);
        },
      ),
    );
  });

  test('settlement: payment is monotonic in the criteria met', () => {
    fc.assert(
      fc.property(
        amount,
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        (escrow, resolved, m) => {
          const met = Math.min(m, resolved);
          if (met < resolved)
            assert.ok(
              paymentFor(escrow, { met, resolved }) <= paymentFor(escrow, { met: met + 1, resolved }),
            );
        },
      ),
    );
  });

  test('cancellations: every hold is split exactly', () => {
    fc.assert(
      fc.property(
        amount,
        amount,
        params,
        fc.constantFrom('withdrawn', 'absent' as const),
        (escrow, stake, p, reason) => {
          const c = cancellationFor(reason, { escrow, workerStake: stake }, p);
          assertConserved(c.holds);
          assert.equal(
            c.holds.reduce((s, h) => s + h.amount, 0n),
            escrow + stake,
          );
        },
      ),
    );
  });
});
