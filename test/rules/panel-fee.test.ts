// The panel fee and the quorum of a round (docs/protocol.md §8): who pays, who is paid, what a void
// round costs its silent members, and when the window hands a redrawn contract to the arbiter.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Address } from '../../workflows/rules/address';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { panelFee, panelFeeHoldId, panelFeeShares } from '../../workflows/rules/panel-fee';
import { afterUnseatedDraw, afterVoidRound } from '../../workflows/rules/recruitment';
import { roundVoid, voidRoundOutcomes } from '../../workflows/rules/tally';

const P = DEFAULT_PARAMS; // panelFeePerSeat 0.2 USDC, baBond 10 USDC, window 72 h
const HOUR = 3_600_000;
const addr = (c: string) => ('0x' + c.repeat(40)) as Address;
const [A, B, C, D, E] = ['a', 'b', 'c', 'd', 'e'].map(addr) as [Address, Address, Address, Address, Address];

describe('panel fee', () => {
  test('is panelFeePerSeat per seat: 0.6 USDC for a first panel, 1 USDC for an appeal panel', () => {
    assert.equal(panelFee(P.baPanelSize, P), 600_000n);
    assert.equal(panelFee(P.appealPanelSize, P), 1_000_000n);
    assert.equal(panelFeeHoldId('c1', 'appeal'), 'c1:panel-fee:appeal');
    assert.throws(() => panelFee(0, P), RangeError);
  });

  test('goes evenly to the members who voted; a silent seat’s share and the remainder to the Treasury', () => {
    assert.deepEqual(panelFeeShares(600_000n, [A, B, C], new Set([A, B, C])), [
      { to: A, amount: 200_000n },
      { to: B, amount: 200_000n },
      { to: C, amount: 200_000n },
    ]);
    assert.deepEqual(panelFeeShares(600_000n, [A, B, C], new Set([A, C])), [
      { to: A, amount: 200_000n },
      { to: C, amount: 200_000n },
      { to: 'treasury', amount: 200_000n },
    ]);
    // 10 over 3 seats: 3 each, the remainder of 1 to the Treasury.
    assert.deepEqual(panelFeeShares(10n, [A, B, C], new Set([A, B, C])), [
      { to: A, amount: 3n },
      { to: B, amount: 3n },
      { to: C, amount: 3n },
      { to: 'treasury', amount: 1n },
    ]);
    assert.deepEqual(panelFeeShares(0n, [A], new Set([A])), []);
  });

  test('property: the parts sum to the fee, no voter gets more than a seat’s share, none is paid twice', () =>
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.subarray([A, B, C, D, E], { minLength: 1 }),
        fc.func(fc.boolean()),
        (fee, members, votes) => {
          const voters = new Set(members.filter((m) => votes(m)));
          const shares = panelFeeShares(fee, members, voters);
          assert.equal(
            shares.reduce((s, p) => s + p.amount, 0n),
            fee,
          );
          const paid = shares.filter((s) => s.to !== 'treasury');
          assert.equal(new Set(paid.map((p) => p.to)).size, paid.length);
          for (const p of paid) {
            assert.ok(voters.has(p.to as Address));
            assert.equal(p.amount, fee / BigInt(members.length));
          }
        },
      ),
    ));
});

describe('silence decides nothing', () => {
  test('a round is void unless more than half of the seated panel voted', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((v) => roundVoid(3, v)),
      [true, true, false, false],
    );
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((v) => roundVoid(5, v)),
      [true, true, true, false, false, false],
    );
    assert.equal(roundVoid(1, 0), true);
    assert.equal(roundVoid(1, 1), false);
  });

  test('a void round: each silent seat loses its slices (the remainder kept), each voter’s bond back whole, no reward', () => {
    const params = { ...P, baBond: 10_000_001n }; // 3 criteria: slices of 3333333, remainder 2
    const outcomes = voidRoundOutcomes({
      panel: [A, B, C],
      votes: { [B]: ['met', 'met', 'unclear'] },
      criteriaCount: 3,
      params,
    });
    assert.deepEqual(
      outcomes.map((o) => [o.backupAgent, o.voted, o.bondSlashed, o.bondReturned, o.tokensMinted]),
      [
        [A, false, 9_999_999n, 2n, 0n],
        [B, true, 0n, 10_000_001n, 0n],
        [C, false, 9_999_999n, 2n, 0n],
      ],
    );
  });

  test('after a void round the redraw is at once, within the window from the dispute; past it, the arbiter', () => {
    const askedAt = 1_000;
    assert.deepEqual(afterVoidRound(askedAt, askedAt + HOUR, P), {
      since: askedAt,
      attempts: 0,
      retryAt: askedAt + HOUR,
      arbiter: false,
    });
    assert.equal(afterVoidRound(askedAt, askedAt + 72 * HOUR, P).arbiter, true);
    // A redraw that cannot seat a panel keeps waiting inside the same window.
    const waiting = afterUnseatedDraw(afterVoidRound(askedAt, askedAt + HOUR, P), askedAt + HOUR, P);
    assert.equal(waiting.since, askedAt);
    assert.equal(afterUnseatedDraw(null, 5 * HOUR, P, askedAt).since, askedAt);
  });
});
