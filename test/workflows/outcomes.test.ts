// The outcome log at every ending (docs/reputation.md §1): each path of the contract workflow, on the
// time-skipping server with the real ledger and log, leaves one record per party — Client, Worker,
// each seated Backup Agent — saying how it ended, with the payment, Criteria Met and each BA's votes
// the contract itself answers; and the log's chain verifies.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { contractQuery, votesQuery, type ContractOutcome } from '../../workflows/definitions';
import { verifyChain, type OutcomeEnding } from '../../workflows/rules/outcomes';
import { useWorkflowSuite } from './harness';
import { PATHS, type PathName } from './scenarios';

const withHarness = useWorkflowSuite();

const ENDINGS: [
  PathName,
  OutcomeEnding,
  { disputed: boolean; appealedBy?: 'client' | 'worker'; unmatched?: true },
][] = [
  ['cancelled-by-client', 'cancelled', { disputed: false, unmatched: true }],
  ['cancelled-unmatched-declined', 'unmatched', { disputed: false, unmatched: true }],
  ['cancelled-unmatched-deadline', 'unmatched', { disputed: false, unmatched: true }],
  ['cancelled-withdrawn', 'withdrawn', { disputed: false }],
  ['cancelled-absent', 'absent', { disputed: false }],
  ['settled-approved', 'approved', { disputed: false }],
  ['settled-auto-approved', 'review-timed-out', { disputed: false }],
  ['dispute-partially-met', 'panel', { disputed: true }],
  ['dispute-appeal-reversed', 'appeal', { disputed: true, appealedBy: 'worker' }],
  ['dispute-trusted-arbiter', 'arbiter', { disputed: true }],
  ['standard-fds-panel', 'panel', { disputed: false }],
];

async function ended(run: { handle: WorkflowHandle; outcome: ContractOutcome | null }) {
  if (run.outcome === null) await run.handle.result();
}

describe('outcome records at every ending (time-skipping server, real ledger and log on SQLite)', () => {
  for (const [path, ending, expected] of ENDINGS) {
    test(`${path}: ${ending}, one record per party`, () =>
      withHarness(async (h) => {
        const run = await PATHS[path](h);
        await ended(run);
        const view = await run.handle.query(contractQuery);
        const votes = await run.handle.query(votesQuery);
        const log = await h.outcomes.list(0, 1000);
        const records = log.filter((r) => r.contractId === run.contractId);
        assert.deepEqual(verifyChain(log), []);

        const bas = votes.sealed ? [] : [...new Set(votes.rows.map((r) => r.backupAgent))];
        // A named Worker who never accepted is no party (unmatched, or cancelled before the match).
        const worker = expected.unmatched === true ? null : view.worker;
        assert.deepEqual(
          records.map((r) => [r.role, r.party]),
          [
            ['client', view.client],
            ...(worker === null ? [] : [['worker', worker]]),
            ...bas.map((ba) => ['backup-agent', ba]),
          ],
        );
        const settled = view.status.startsWith('settled-');
        for (const r of records) {
          assert.equal(r.ending, ending);
          assert.equal(r.milestoneIndex, null);
          assert.equal(r.disputed, expected.disputed);
          assert.equal(r.appealedBy, expected.appealedBy ?? null);
          assert.equal(r.revisionsRequested, 0);
          assert.equal(r.difficulty, view.difficulty);
          assert.equal(r.amount, settled ? view.payment : '0');
          assert.deepEqual(
            r.criteria.map((c) => c.outcome),
            settled ? view.criteriaMet : [],
          );
          assert.equal(r.criteriaMet, (view.criteriaMet ?? []).filter((v) => settled && v === 'met').length);
          assert.equal(r.counterparty, r.role === 'client' ? worker : view.client);
          if (r.role === 'backup-agent' && !votes.sealed) {
            const own = votes.rows.filter((row) => row.backupAgent === r.party);
            assert.deepEqual(
              r.votes,
              r.criteria.map((_, i) => own.find((row) => row.criterionIndex === i)?.vote ?? 'no vote'),
            );
          } else {
            assert.equal(r.votes, null);
          }
        }
      }));
  }

  test('a contract never created writes nothing', () =>
    withHarness(async (h) => {
      await PATHS['not-created-insufficient-funds'](h);
      assert.deepEqual(await h.outcomes.list(0, 10), []);
    }));
});
