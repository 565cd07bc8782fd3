// Reputation as a pure function of the log (docs/reputation.md §3–§4): each raw figure from records
// built by the workflow's own builder, and the trust walk's properties.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chainRecord, type ChainedOutcome, type OutcomeEntry } from '../../workflows/rules/outcomes';
import { DAMPING, rawReputations, TrustGraph, trustScore } from '../../workflows/rules/reputation';
import { agent, entriesOf } from './fixtures';

function chain(entries: OutcomeEntry[]): ChainedOutcome[] {
  const out: ChainedOutcome[] = [];
  for (const e of entries) out.push(chainRecord(e, out.at(-1) ?? null));
  return out;
}

const [CLIENT, WORKER, BA1, BA2] = [agent(1), agent(2), agent(7), agent(8)];

describe('raw figures', () => {
  const records = chain([
    // Approved, standard (×2), machine-checked criterion 0 scored 55 (half), criterion 1 text: 1.5 / 2 × 2.
    ...entriesOf({ contractId: 'a', difficulty: 'standard', scores: new Map([[0, 55]]) }),
    // Disputed, the panel found [met, not met]: the dispute is upheld, the Worker lost it; one BA silent.
    ...entriesOf({
      contractId: 'b',
      ending: 'panel',
      disputed: true,
      criteriaMet: ['met', 'not met'],
      payment: 2_500_000n,
      votes: [
        { backupAgent: BA1, criterionIndex: 0, vote: 'met' },
        { backupAgent: BA1, criterionIndex: 1, vote: 'met' },
        { backupAgent: BA2, criterionIndex: 0, vote: 'no vote' },
        { backupAgent: BA2, criterionIndex: 1, vote: 'no vote' },
      ],
    }),
    ...entriesOf({ contractId: 'c', ending: 'review-timed-out', payment: 1_000_000n }),
    ...entriesOf({ contractId: 'd', ending: 'withdrawn', criteriaMet: null, payment: 0n }),
    ...entriesOf({ contractId: 'e', ending: 'absent', criteriaMet: null, payment: 0n }),
  ]);
  const raw = rawReputations(records);

  test('as a Worker: contracts, volume, credit × difficulty, withdrawals, absences, disputes lost', () => {
    assert.deepEqual(raw.get(WORKER)!.worker, {
      contracts: 5,
      volume: '8500000',
      // a: (1 + 0.5) / 2 × 2 = 1.5; b: 1 / 2 = 0.5; c: 1; d, e: 0.
      credit: 3,
      withdrawals: 1,
      absences: 1,
      disputesLost: 1,
    });
  });
  test('as a Client: contracts, volume paid out, reviews timed out, disputes raised and upheld', () => {
    assert.deepEqual(raw.get(CLIENT)!.client, {
      contracts: 5,
      volume: '8500000',
      reviewsTimedOut: 1,
      disputesRaised: 1,
      disputesUpheld: 1,
    });
  });
  test('as a Backup Agent: seats, coherent votes, missed votes; counterparties', () => {
    assert.deepEqual(raw.get(BA1)!.backupAgent, { seats: 1, votesCast: 2, votesCoherent: 1, missedVotes: 0 });
    assert.deepEqual(raw.get(BA2)!.backupAgent, { seats: 1, votesCast: 0, votesCoherent: 0, missedVotes: 1 });
    assert.equal(raw.get(WORKER)!.counterparties, 1);
    assert.equal(raw.get(BA1)!.counterparties, 1);
  });
});

describe('the trust walk', () => {
  const honest = [agent(10), agent(11), agent(12)];
  const ring = [agent(20), agent(21), agent(22)];
  const trade = (xs: string[], prefix: string, usdc: bigint) =>
    xs.flatMap((c, i) =>
      entriesOf({ contractId: `${prefix}${i}`, client: c, worker: xs[(i + 1) % xs.length]!, payment: usdc }),
    );
  const graphOf = (entries: OutcomeEntry[]) => {
    const g = new TrustGraph();
    for (const r of chain(entries)) g.add(r);
    return g;
  };
  const coverageOf = (g: TrustGraph, viewer: string, a: string) => g.trust([viewer]).coverage[g.indexOf(a)!]!;

  test('a ring nobody the viewer trusts has paid scores 0, however large its volume', () => {
    const g = graphOf([...trade(honest, 'h', 1_000_000n), ...trade(ring, 'r', 10n ** 12n)]);
    const trust = g.trust([honest[0]!]);
    assert.ok(Math.abs(trust.rank.reduce((a, b) => a + b, 0) - 1) < 1e-9, 'a probability distribution');
    for (const a of ring) assert.equal(trustScore(trust, g, a), 0);
    for (const a of honest) assert.ok(trustScore(trust, g, a) > 0);
  });

  test('trust passes only in the paying direction: being paid vouches for nobody', () => {
    // The viewer worked for a key that paid it, and for nobody else: the payer earns nothing from it.
    const [viewer, payer] = [agent(30), agent(31)];
    const g = graphOf(entriesOf({ contractId: 'p', client: payer, worker: viewer, payment: 9_000_000n }));
    assert.equal(trustScore(g.trust([viewer]), g, payer), 0);
    // The other way round, the viewer's money paid for the work: its Worker is trusted.
    const h = graphOf(entriesOf({ contractId: 'q', client: viewer, worker: payer, payment: 9_000_000n }));
    assert.ok(trustScore(h.trust([viewer]), h, payer) > 0);
  });

  test("coverage: the share of a Worker's paid record that traces back to the viewer's money", () => {
    const [viewer, stranger, worker, next] = [agent(40), agent(41), agent(42), agent(43)];
    const g = graphOf([
      // The worker's record: 3 USDC from the viewer, 3 from a stranger nobody paid; then it pays `next`.
      ...entriesOf({ contractId: 'v', client: viewer, worker, payment: 3_000_000n }),
      ...entriesOf({ contractId: 's', client: stranger, worker, payment: 3_000_000n }),
      ...entriesOf({ contractId: 'n', client: worker, worker: next, payment: 1_000_000n }),
    ]);
    assert.equal(coverageOf(g, viewer, viewer), 1);
    assert.equal(coverageOf(g, viewer, stranger), 0);
    assert.ok(Math.abs(coverageOf(g, viewer, worker) - DAMPING / 2) < 1e-12);
    assert.ok(Math.abs(coverageOf(g, viewer, next) - (DAMPING * DAMPING) / 2) < 1e-12);
  });

  test("a ring's self-dealing dilutes the key that bridged into it: more volume, less score", () => {
    // An honest Client pays one ring key for a real job, and pays an honest newcomer the same.
    const [bridge, newcomer] = [ring[0]!, agent(13)];
    const foothold = [
      ...trade(honest, 'h', 5_000_000n),
      ...entriesOf({ contractId: 'b', client: honest[1]!, worker: bridge, payment: 1_000_000n }),
      ...entriesOf({ contractId: 'n', client: honest[1]!, worker: newcomer, payment: 1_000_000n }),
    ];
    const scores = (ringUsdc: bigint) => {
      const g = graphOf([...foothold, ...trade(ring, `r${ringUsdc}-`, ringUsdc * 1_000_000n)]);
      const trust = g.trust([honest[0]!]);
      return { bridge: trustScore(trust, g, bridge), newcomer: trustScore(trust, g, newcomer) };
    };
    const small = scores(1n);
    const large = scores(1_000n);
    assert.ok(large.bridge < small.bridge, 'a thousand times the self-dealing lowers the bridge key');
    assert.ok(
      large.bridge < large.newcomer / 100,
      'the bridge key is below 1 % of the same job done cleanly',
    );
    assert.equal(large.newcomer, small.newcomer, "the ring's volume changes nothing for the honest newcomer");
  });

  test('a warm start from an older answer lands on the same scores', () => {
    const g = new TrustGraph();
    const records = chain([
      ...trade(honest, 'h', 1_000_000n),
      ...trade([...honest, ...ring], 'x', 2_000_000n),
    ]);
    records.slice(0, 4).forEach((r) => g.add(r));
    const older = g.trust([honest[0]!]);
    records.slice(4).forEach((r) => g.add(r));
    const warm = g.trust([honest[0]!], older);
    const cold = g.trust([honest[0]!]);
    for (const a of [...honest, ...ring]) {
      assert.ok(Math.abs(trustScore(warm, g, a) - trustScore(cold, g, a)) < 1e-4, a);
    }
  });

  test('an unknown viewer or agent: nothing to walk from, score 0', () => {
    const g = graphOf(trade(honest, 'h', 1_000_000n));
    assert.equal(trustScore(g.trust([agent(99)]), g, honest[1]!), 0);
    assert.equal(trustScore(g.trust([honest[0]!]), g, agent(99)), 0);
  });
});
