import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Address } from '../../workflows/rules/address';
import { DEFAULT_PARAMS, type ProtocolParams } from '../../workflows/rules/params';
import {
  bondSlice,
  criteriaMetFromReview,
  majorityOutcome,
  scoreVote,
  tally,
  type BackupAgentOutcome,
  type Tally,
} from '../../workflows/rules/tally';
import { VERDICTS, type Verdict } from '../../workflows/rules/verdicts';

const P = DEFAULT_PARAMS; // baBond 10 USDC, reward 1 OCT, unclear slash 50%, unclear reward 50%
const A = ('0x' + 'a'.repeat(40)) as Address;
const B = ('0x' + 'b'.repeat(40)) as Address;
const C = ('0x' + 'c'.repeat(40)) as Address;

const v = (s: string): Verdict[] =>
  s.split(',').map((x) => (x === 'm' ? 'met' : x === 'n' ? 'not met' : 'unclear'));

function agent(t: Tally, ba: Address): BackupAgentOutcome {
  const found = t.agents.find((a) => a.backupAgent === ba);
  assert.ok(found, `${ba} in the tally`);
  return found;
}

function rowsOf(t: Tally, ba: Address) {
  return t.rows
    .filter((r) => r.backupAgent === ba)
    .map((r) => [r.criterionIndex, r.vote, r.majorityOutcome, r.bondOutcome, r.reward]);
}

describe('the §8 table, one cell at a time (slice 5 USDC: baBond 10 USDC over 2 criteria)', () => {
  const slice = 5_000_000n;
  const cases: [Verdict, Verdict | 'no vote', string, bigint, bigint][] = [
    // majority, vote, bond outcome, slashed, reward
    ['met', 'met', 'returned', 0n, 1_000_000n],
    ['not met', 'not met', 'returned', 0n, 1_000_000n],
    ['met', 'not met', 'slashed', slice, 0n],
    ['not met', 'met', 'slashed', slice, 0n],
    ['met', 'no vote', 'slashed', slice, 0n],
    ['not met', 'no vote', 'slashed', slice, 0n],
    ['met', 'unclear', 'partially slashed', 2_500_000n, 0n],
    ['not met', 'unclear', 'partially slashed', 2_500_000n, 0n],
    ['unclear', 'unclear', 'returned', 0n, 500_000n],
    ['unclear', 'met', 'returned', 0n, 0n],
    ['unclear', 'not met', 'returned', 0n, 0n],
    ['unclear', 'no vote', 'returned', 0n, 0n],
  ];
  for (const [majority, vote, bondOutcome, slashed, reward] of cases) {
    test(`majority ${majority}, vote ${vote}: ${bondOutcome}, reward ${reward}`, () => {
      assert.deepEqual(scoreVote(majority, vote, slice, P), { bondOutcome, slashed, reward });
    });
  }

  test('the unclear slash and the reduced reward round down', () => {
    const p: ProtocolParams = {
      ...P,
      unclearSlashBps: 3333,
      unclearRewardBps: 3333,
      rewardPerCriterion: 10n,
    };
    assert.equal(scoreVote('met', 'unclear', 10n, p).slashed, 3n); // 3.333
    assert.equal(scoreVote('unclear', 'unclear', 10n, p).reward, 3n);
  });
});

describe('majorityOutcome: more than half of the drawn panel', () => {
  test('2 of 3 decide; 1 of 3 does not', () => {
    assert.equal(majorityOutcome(3, ['met', 'met', 'not met']), 'met');
    assert.equal(majorityOutcome(3, ['not met', 'no vote', 'not met']), 'not met');
    assert.equal(majorityOutcome(3, ['met', 'not met', 'unclear']), 'unclear');
    assert.equal(majorityOutcome(3, ['met', 'no vote', 'no vote']), 'unclear');
    assert.equal(majorityOutcome(3, ['unclear', 'unclear', 'met']), 'unclear');
  });
  test('panels of 2, 1 and 0', () => {
    assert.equal(majorityOutcome(2, ['met', 'met']), 'met');
    assert.equal(majorityOutcome(2, ['met', 'not met']), 'unclear');
    assert.equal(majorityOutcome(2, ['met', 'no vote']), 'unclear');
    assert.equal(majorityOutcome(1, ['not met']), 'not met');
    assert.equal(majorityOutcome(1, ['no vote']), 'unclear');
    assert.equal(majorityOutcome(0, []), 'unclear');
  });
});

describe('tally', () => {
  test('a mixed panel: rows, bonds and tokens per BA', () => {
    const t = tally({
      panel: [A, B, C],
      votes: { [A]: v('m,n,u'), [B]: v('m,m,u'), [C]: v('n,n,m') },
      criteriaCount: 3,
      params: P,
    });
    assert.deepEqual(t.criteriaMet, ['met', 'not met', 'unclear']);
    assert.deepEqual(rowsOf(t, A), [
      [0, 'met', 'met', 'returned', 1_000_000n],
      [1, 'not met', 'not met', 'returned', 1_000_000n],
      [2, 'unclear', 'unclear', 'returned', 500_000n],
    ]);
    assert.deepEqual(rowsOf(t, B), [
      [0, 'met', 'met', 'returned', 1_000_000n],
      [1, 'met', 'not met', 'slashed', 0n],
      [2, 'unclear', 'unclear', 'returned', 500_000n],
    ]);
    assert.deepEqual(rowsOf(t, C), [
      [0, 'not met', 'met', 'slashed', 0n],
      [1, 'not met', 'not met', 'returned', 1_000_000n],
      [2, 'met', 'unclear', 'returned', 0n],
    ]);
    assert.deepEqual(agent(t, A), {
      backupAgent: A,
      voted: true,
      bondPosted: 10_000_000n,
      bondReturned: 10_000_000n,
      bondSlashed: 0n,
      tokensMinted: 2_500_000n,
    });
    assert.deepEqual(agent(t, B), {
      backupAgent: B,
      voted: true,
      bondPosted: 10_000_000n,
      bondReturned: 6_666_667n, // slice 3_333_333 slashed; the remainder 1 is never at risk
      bondSlashed: 3_333_333n,
      tokensMinted: 1_500_000n,
    });
    assert.equal(agent(t, C).bondSlashed, 3_333_333n);
    assert.equal(agent(t, C).tokensMinted, 1_000_000n);
    assert.deepEqual(t.totals, { bondSlashed: 6_666_666n, tokensMinted: 5_000_000n });
  });

  test('unclear against a decisive majority: partially slashed', () => {
    const t = tally({
      panel: [A, B, C],
      votes: { [A]: v('m,m'), [B]: v('m,u'), [C]: v('m,m') },
      criteriaCount: 2,
      params: P,
    });
    assert.deepEqual(t.criteriaMet, ['met', 'met']);
    assert.deepEqual(rowsOf(t, B)[1], [1, 'unclear', 'met', 'partially slashed', 0n]);
    assert.equal(agent(t, B).bondSlashed, 2_500_000n);
    assert.equal(agent(t, B).bondReturned, 7_500_000n);
    assert.equal(agent(t, B).tokensMinted, 1_000_000n);
  });

  test("a non-voter against decisive majorities: its slices are slashed from its seat's bond", () => {
    const t = tally({
      panel: [A, B, C],
      votes: { [A]: v('m,n'), [B]: v('m,n') },
      criteriaCount: 2,
      params: P,
    });
    assert.deepEqual(t.criteriaMet, ['met', 'not met']);
    assert.deepEqual(rowsOf(t, C), [
      [0, 'no vote', 'met', 'slashed', 0n],
      [1, 'no vote', 'not met', 'slashed', 0n],
    ]);
    assert.deepEqual(agent(t, C), {
      backupAgent: C,
      voted: false,
      bondPosted: 10_000_000n,
      bondReturned: 0n,
      bondSlashed: 10_000_000n,
      tokensMinted: 0n,
    });
    assert.deepEqual(t.totals, { bondSlashed: 10_000_000n, tokensMinted: 4_000_000n });
  });

  test('no majority: one vote each way → unclear; only the unclear voter is rewarded', () => {
    const t = tally({
      panel: [A, B, C],
      votes: { [A]: v('m'), [B]: v('n'), [C]: v('u') },
      criteriaCount: 1,
      params: P,
    });
    assert.deepEqual(t.criteriaMet, ['unclear']);
    assert.deepEqual(
      t.rows.map((r) => [r.vote, r.bondOutcome, r.reward]),
      [
        ['met', 'returned', 0n],
        ['not met', 'returned', 0n],
        ['unclear', 'returned', 500_000n],
      ],
    );
    assert.deepEqual(t.totals, { bondSlashed: 0n, tokensMinted: 500_000n });
  });

  test('no majority: two non-voters → unclear, nobody slashed, nothing minted', () => {
    const t = tally({ panel: [A, B, C], votes: { [A]: v('m,n') }, criteriaCount: 2, params: P });
    assert.deepEqual(t.criteriaMet, ['unclear', 'unclear']);
    assert.ok(t.rows.every((r) => r.bondOutcome === 'returned' && r.reward === 0n));
    assert.deepEqual(agent(t, A).bondReturned, 10_000_000n);
    assert.deepEqual(agent(t, B).bondSlashed, 0n);
    assert.deepEqual(t.totals, { bondSlashed: 0n, tokensMinted: 0n });
  });

  test('nobody votes: every criterion unclear, one no-vote row per (BA, criterion)', () => {
    const t = tally({ panel: [A, B, C], votes: {}, criteriaCount: 2, params: P });
    assert.deepEqual(t.criteriaMet, ['unclear', 'unclear']);
    assert.equal(t.rows.length, 6);
    assert.ok(t.rows.every((r) => r.vote === 'no vote' && r.bondOutcome === 'returned' && r.reward === 0n));
  });

  test('all unclear: everyone returned and paid the reduced reward', () => {
    const t = tally({
      panel: [A, B, C],
      votes: { [A]: v('u,u'), [B]: v('u,u'), [C]: v('u,u') },
      criteriaCount: 2,
      params: P,
    });
    assert.deepEqual(t.criteriaMet, ['unclear', 'unclear']);
    assert.deepEqual(
      t.agents.map((a) => [a.bondReturned, a.tokensMinted]),
      [
        [10_000_000n, 1_000_000n],
        [10_000_000n, 1_000_000n],
        [10_000_000n, 1_000_000n],
      ],
    );
  });

  test('a panel of 1 decides alone', () => {
    const t = tally({ panel: [A], votes: { [A]: v('m,n') }, criteriaCount: 2, params: P });
    assert.deepEqual(t.criteriaMet, ['met', 'not met']);
    assert.equal(agent(t, A).tokensMinted, 2_000_000n);
    const silent = tally({ panel: [A], votes: {}, criteriaCount: 2, params: P });
    assert.deepEqual(silent.criteriaMet, ['unclear', 'unclear']);
    assert.equal(agent(silent, A).bondSlashed, 0n);
  });

  test('a panel of 2 needs both', () => {
    const t = tally({
      panel: [A, B],
      votes: { [A]: v('m,m,m'), [B]: v('m,n,u') },
      criteriaCount: 3,
      params: P,
    });
    assert.deepEqual(t.criteriaMet, ['met', 'unclear', 'unclear']);
    const half = tally({ panel: [A, B], votes: { [A]: v('n') }, criteriaCount: 1, params: P });
    assert.deepEqual(half.criteriaMet, ['unclear']);
    assert.equal(agent(half, B).bondSlashed, 0n);
  });

  test('a panel of 0: every criterion unclear, no rows, nothing moves', () => {
    assert.deepEqual(tally({ panel: [], votes: {}, criteriaCount: 3, params: P }), {
      criteriaMet: ['unclear', 'unclear', 'unclear'],
      rows: [],
      agents: [],
      totals: { bondSlashed: 0n, tokensMinted: 0n },
    });
  });

  test('a voter wrong on every criterion keeps the remainder that is never at risk', () => {
    const t = tally({
      panel: [A, B, C],
      votes: { [A]: v('n,n,n'), [B]: v('m,m,m'), [C]: v('m,m,m') },
      criteriaCount: 3,
      params: P,
    });
    assert.equal(bondSlice(P.baBond, 3), 3_333_333n);
    assert.equal(agent(t, A).bondSlashed, 9_999_999n);
    assert.equal(agent(t, A).bondReturned, 1n);
  });

  test('refuses inconsistent input', () => {
    assert.throws(
      () => tally({ panel: [A], votes: { [B]: v('m') }, criteriaCount: 1, params: P }),
      /not on the panel/,
    );
    assert.throws(
      () => tally({ panel: [A], votes: { [A]: v('m,m') }, criteriaCount: 1, params: P }),
      /2 verdicts/,
    );
    assert.throws(() => tally({ panel: [A, A], votes: {}, criteriaCount: 1, params: P }), /twice/);
    assert.throws(() => tally({ panel: [A], votes: {}, criteriaCount: 0, params: P }), RangeError);
  });
});

describe('criteriaMetFromReview', () => {
  test('approval or no action: every criterion met', () => {
    assert.deepEqual(criteriaMetFromReview('approve', 3), ['met', 'met', 'met']);
    assert.deepEqual(criteriaMetFromReview('no-action', 1), ['met']);
    assert.throws(() => criteriaMetFromReview('approve', 0), RangeError);
  });
});

describe('tally properties', () => {
  const addresses = fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 6 })
    .map((ns) => ns.map((n) => ('0x' + n.toString(16).padStart(40, '0')) as Address));
  const bpsArb = fc.integer({ min: 0, max: 10_000 });
  const params = fc
    .record({
      baBond: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      rewardPerCriterion: fc.bigInt({ min: 0n, max: 10n ** 9n }),
      unclearSlashBps: bpsArb,
      unclearRewardBps: bpsArb,
    })
    .map((o): ProtocolParams => ({ ...P, ...o }));
  const scenario = fc
    .record({ panel: addresses, criteriaCount: fc.integer({ min: 1, max: 10 }), params })
    .chain(({ panel, criteriaCount, params: p }) =>
      fc
        .array(
          fc.option(
            fc.array(fc.constantFrom(...VERDICTS), { minLength: criteriaCount, maxLength: criteriaCount }),
          ),
          {
            minLength: panel.length,
            maxLength: panel.length,
          },
        )
        .map((ballots) => {
          const votes: Record<string, Verdict[]> = {};
          ballots.forEach((b, i) => {
            if (b !== null) votes[panel[i]!] = b;
          });
          return { panel, criteriaCount, params: p, votes };
        }),
    );

  test('conservation: returned + slashed = posted; tokens = sum of rewards; one row per (BA, criterion)', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const t = tally(input);
        assert.equal(t.rows.length, input.panel.length * input.criteriaCount);
        assert.equal(t.criteriaMet.length, input.criteriaCount);
        const slice = bondSlice(input.params.baBond, input.criteriaCount);
        let posted = 0n;
        let returned = 0n;
        for (const a of t.agents) {
          const rows = t.rows.filter((r) => r.backupAgent === a.backupAgent);
          assert.equal(rows.length, input.criteriaCount);
          assert.equal(
            a.tokensMinted,
            rows.reduce((s, r) => s + r.reward, 0n),
          );
          assert.equal(a.bondReturned + a.bondSlashed, a.bondPosted);
          assert.ok(a.bondSlashed <= slice * BigInt(input.criteriaCount));
          assert.equal(a.voted, input.votes[a.backupAgent] !== undefined);
          assert.equal(a.bondPosted, input.params.baBond);
          posted += a.bondPosted;
          returned += a.bondReturned;
        }
        assert.equal(returned + t.totals.bondSlashed, posted);
        assert.equal(
          t.totals.tokensMinted,
          t.rows.reduce((s, r) => s + r.reward, 0n),
        );
        t.rows.forEach((r) => assert.equal(r.majorityOutcome, t.criteriaMet[r.criterionIndex]));
      }),
    );
  });

  test('a decisive outcome is held by more than half of the drawn panel', () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const t = tally(input);
        t.criteriaMet.forEach((outcome, i) => {
          if (outcome === 'unclear') return;
          const holders = input.panel.filter((ba) => input.votes[ba]?.[i] === outcome).length;
          assert.ok(holders * 2 > input.panel.length);
        });
      }),
    );
  });
});
