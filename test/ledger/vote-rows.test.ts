// The panel registry's vote rows on every store (store/ledger/panels.ts): a Backup Agent that sits on the
// panels of two milestones of one contract keeps both tallies' rows, each under its milestone; a retried
// close adds nothing; a vote_rows table written before milestones were kept is rebuilt on open, its rows
// a whole contract's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { VoteRecord } from '../../store/ledger';
import { describeEachStore } from './stores';

const agent = (n: number) => '0x' + n.toString(16).padStart(2, '0').repeat(20);
const [A, B] = [agent(0xa1), agent(0xb2)];

function row(backupAgent: string, milestoneIndex: number | null, criterionIndex: number): VoteRecord {
  return {
    contractId: 'c1',
    milestoneIndex,
    backupAgent,
    criterionIndex,
    vote: milestoneIndex === 1 ? 'not met' : 'met',
    majorityOutcome: 'met',
    bondOutcome: milestoneIndex === 1 ? 'slashed' : 'returned',
    reward: milestoneIndex === 1 ? 0n : 1_000_000n,
  };
}

const brief = (rows: VoteRecord[]) => rows.map((r) => [r.milestoneIndex, r.criterionIndex, r.vote, r.reward]);

describeEachStore('vote rows', (store) => {
  test('a Backup Agent on the panels of milestones 0 and 1 of one contract keeps both; a retry adds nothing', async () => {
    const { ledger } = await store.fresh();
    const first = [row(A, 0, 0), row(A, 0, 1), row(B, 0, 0), row(B, 0, 1)];
    const second = [row(A, 1, 0), row(A, 1, 1)];
    await ledger.panels.openPanel('c1', [A, B]);
    await ledger.panels.closePanel('c1', first);
    await ledger.panels.openPanel('c1', [A]);
    await ledger.panels.closePanel('c1', second);
    // The activity retried after its commit: the same rows again.
    await ledger.panels.closePanel('c1', second);
    await ledger.panels.closePanel('c1', first);

    assert.deepEqual(brief(await ledger.panels.voteRowsOf(A)), [
      [0, 0, 'met', 1_000_000n],
      [0, 1, 'met', 1_000_000n],
      [1, 0, 'not met', 0n],
      [1, 1, 'not met', 0n],
    ]);
    assert.deepEqual(
      (await ledger.panels.voteRowsByContract('c1')).map((r) => [
        r.milestoneIndex,
        r.backupAgent,
        r.criterionIndex,
      ]),
      [
        [0, A, 0],
        [0, A, 1],
        [0, B, 0],
        [0, B, 1],
        [1, A, 0],
        [1, A, 1],
      ],
    );
    assert.deepEqual(await ledger.panels.openPanelsOf(A), []);
  });

  test('a whole contract’s rows carry a null milestone; a negative milestone is refused, nothing written', async () => {
    const { ledger } = await store.fresh();
    await ledger.panels.closePanel('c1', [row(A, null, 0)]);
    await assert.rejects(ledger.panels.closePanel('c1', [row(B, -1, 0)]), /rows\[0\]\.milestoneIndex/);
    assert.deepEqual(brief(await ledger.panels.voteRowsByContract('c1')), [[null, 0, 'met', 1_000_000n]]);
  });

  test('a vote_rows table without milestones is rebuilt on open: its rows whole-contract, new ones by milestone', async () => {
    const { ledger, config, exec } = await store.fresh();
    await ledger.close();
    await exec(`
      DROP TABLE vote_rows;
      CREATE TABLE vote_rows (
        contract_id TEXT NOT NULL,
        backup_agent TEXT NOT NULL,
        criterion_index INTEGER NOT NULL CHECK (criterion_index >= 0),
        vote TEXT NOT NULL CHECK (vote IN ('met', 'not met', 'unclear', 'no vote')),
        majority_outcome TEXT NOT NULL CHECK (majority_outcome IN ('met', 'not met', 'unclear')),
        bond_outcome TEXT NOT NULL CHECK (bond_outcome IN ('returned', 'slashed', 'partially slashed')),
        reward BIGINT NOT NULL CHECK (reward >= 0),
        tallied_at TEXT NOT NULL,
        PRIMARY KEY (contract_id, backup_agent, criterion_index)
      );
      CREATE INDEX IF NOT EXISTS vote_rows_by_agent ON vote_rows (backup_agent, contract_id, criterion_index);
      INSERT INTO vote_rows VALUES ('c0', '${A}', 0, 'met', 'met', 'returned', 1000000, '2026-01-01T00:00:00.000Z');
    `);
    const reopened = await store.openTracked(config);
    await reopened.panels.closePanel('c1', [row(A, 0, 0), row(A, 1, 0)]);
    assert.deepEqual(
      (await reopened.panels.voteRowsOf(A)).map((r) => [r.contractId, r.milestoneIndex, r.criterionIndex]),
      [
        ['c0', null, 0],
        ['c1', 0, 0],
        ['c1', 1, 0],
      ],
    );
    // Opened again: already upgraded, nothing changes.
    await reopened.close();
    const again = await store.openTracked(config);
    assert.equal((await again.panels.voteRowsOf(A)).length, 3);
  });
});
