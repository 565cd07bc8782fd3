import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Address } from '../../workflows/rules/address';
import {
  appealBond,
  appealDeadline,
  appealRefusal,
  finalTally,
  firstTallyFinal,
  mayStillAppeal,
  type AppealState,
} from '../../workflows/rules/appeal';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import type { Verdict } from '../../workflows/rules/verdicts';

const P = DEFAULT_PARAMS;
const a = (c: string) => ('0x' + c.repeat(40)) as Address;
const [A, B, C] = [a('a'), a('b'), a('c')];
const APPEAL = [a('1'), a('2'), a('3'), a('4'), a('5')];
const v = (s: string): Verdict[] =>
  s.split(',').map((x) => (x === 'm' ? 'met' : x === 'n' ? 'not met' : 'unclear'));

describe('appeal window', () => {
  const open: AppealState = { deadline: 1000, appealedBy: null, waivedBy: [] };

  test('the bond and the deadline follow the parameters', () => {
    assert.equal(appealBond(4_000_000n, P), 400_000n);
    assert.equal(appealBond(9n, P), 0n);
    assert.equal(appealDeadline(5_000, P), 5_000 + 24 * 3_600_000);
  });

  test('the Client or the Worker may appeal once, within the window', () => {
    assert.equal(appealRefusal(open, 'client', 1000), null);
    assert.equal(appealRefusal(open, 'worker', 0), null);
    assert.equal(appealRefusal(open, null, 0)?.code, 'not-a-party');
    assert.equal(appealRefusal(open, 'client', 1001)?.code, 'window-closed');
    const appealed = { ...open, appealedBy: 'worker' as const };
    assert.equal(appealRefusal(appealed, 'worker', 0)?.code, 'already-decided');
    assert.equal(appealRefusal(appealed, 'client', 0)?.code, 'already-decided');
  });

  test('the first tally is final when the window passes unused or both parties waive', () => {
    assert.equal(firstTallyFinal(open, 1000), false);
    assert.equal(firstTallyFinal(open, 1001), true);
    const oneWaived = { ...open, waivedBy: ['client' as const] };
    assert.deepEqual(mayStillAppeal(oneWaived, 0), ['worker']);
    assert.equal(firstTallyFinal(oneWaived, 0), false);
    assert.equal(firstTallyFinal({ ...open, waivedBy: ['client', 'worker'] }, 0), true);
    assert.equal(firstTallyFinal({ ...open, appealedBy: 'client' }, 5000), false);
  });
});

describe('finalTally', () => {
  const first = {
    panel: [A, B, C],
    votes: { [A]: v('n,m'), [B]: v('n,m'), [C]: v('m,m') },
    criteriaCount: 2,
    params: P,
  };

  test('without an appeal the first panel decides and is scored against itself', () => {
    const t = finalTally(first, null);
    assert.deepEqual(t.criteriaMet, ['not met', 'met']);
    assert.equal(t.appealChanged, false);
    assert.equal(t.agents.find((x) => x.backupAgent === C)!.bondSlashed, 5_000_000n);
  });

  test('an appeal that reverses a criterion: the appeal decides, both panels scored against it', () => {
    const appeal = {
      panel: APPEAL,
      votes: Object.fromEntries(APPEAL.slice(0, 4).map((x) => [x, v('m,m')])),
      criteriaCount: 2,
      params: P,
    };
    const t = finalTally(first, appeal);
    assert.deepEqual(t.criteriaMet, ['met', 'met']);
    assert.equal(t.appealChanged, true);
    const slashed = (x: Address) => t.agents.find((o) => o.backupAgent === x)!.bondSlashed;
    // A and B voted `not met` on criterion 1 against the final `met`: that slice is slashed.
    assert.equal(slashed(A), 5_000_000n);
    assert.equal(slashed(B), 5_000_000n);
    assert.equal(slashed(C), 0n);
    // The appeal panel's silent member loses both slices; the four voters are rewarded.
    assert.equal(slashed(APPEAL[4]!), 10_000_000n);
    assert.equal(t.agents.find((o) => o.backupAgent === APPEAL[0])!.tokensMinted, 2_000_000n);
    assert.equal(t.rows.length, (3 + 5) * 2);
    assert.equal(t.totals.bondSlashed, 20_000_000n);
  });

  test('an appeal that confirms every criterion changes nothing', () => {
    const appeal = {
      panel: APPEAL,
      votes: Object.fromEntries(APPEAL.map((x) => [x, v('n,m')])),
      criteriaCount: 2,
      params: P,
    };
    const t = finalTally(first, appeal);
    assert.deepEqual(t.criteriaMet, ['not met', 'met']);
    assert.equal(t.appealChanged, false);
  });
});
