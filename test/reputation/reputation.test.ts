// Reputation as a pure function of the log (docs/reputation.md §3–§4): each raw figure from records
// built by the workflow's own builder, and the trust walk's properties.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chainRecord, type ChainedOutcome, type OutcomeEntry } from '../../workflows/rules/outcomes';
import { rawReputations, TrustGraph, trustScore } from '../../workflows/rules/reputation';
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

  test('a ring nobody the viewer trusts has paid scores 0, however large its volume', () => {
    const g = new TrustGraph();
    for (const r of chain([...trade(honest, 'h', 1_000_000n), ...trade(ring, 'r', 10n ** 12n)])) g.add(r);
    const rank = g.personalizedPageRank([honest[0]!]);
    assert.ok(Math.abs(rank.reduce((a, b) => a + b, 0) - 1) < 1e-9, 'a probability distribution');
    for (const a of ring) assert.equal(trustScore(rank, g, a), 0);
    for (const a of honest) assert.ok(trustScore(rank, g, a) > 0);
  });

  test('a warm start from an older answer lands on the same scores', () => {
    const g = new TrustGraph();
    const records = chain([
      ...trade(honest, 'h', 1_000_000n),
      ...trade([...honest, ...ring], 'x', 2_000_000n),
    ]);
    records.slice(0, 4).forEach((r) => g.add(r));
    const older = g.personalizedPageRank([honest[0]!]);
    records.slice(4).forEach((r) => g.add(r));
    const warm = g.personalizedPageRank([honest[0]!], undefined, undefined, older);
    const cold = g.personalizedPageRank([honest[0]!]);
    for (const a of [...honest, ...ring]) {
      assert.ok(Math.abs(trustScore(warm, g, a) - trustScore(cold, g, a)) < 1e-4, a);
    }
  });

  test('an unknown viewer or agent: nothing to walk from, score 0', () => {
    const g = new TrustGraph();
    for (const r of chain(trade(honest, 'h', 1_000_000n))) g.add(r);
    assert.equal(trustScore(g.personalizedPageRank([agent(99)]), g, honest[1]!), 0);
    assert.equal(trustScore(g.personalizedPageRank([honest[0]!]), g, agent(99)), 0);
  });
});
