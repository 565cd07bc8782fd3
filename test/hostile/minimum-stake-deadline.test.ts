// A quote whose Worker Stake would round to 0, at the Match Deadline (time-skipping server, real ledger
// on SQLite): its bid bond is the floor, minWorkerStake, held from the quote on and matched at the
// deadline as the Worker Stake, so no match is free. The absent Worker's stake is slashed (to the
// Client, the rest to the Treasury); the escrow comes back; nothing stays held.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AUCTION_PATHS } from '../workflows/auction-scenarios';
import { useWorkflowSuite } from '../workflows/harness';
import { CLIENT, FUNDS, OTHER, WORKER_FUNDS } from '../support/fixtures';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();
const FLOOR = 100_000n;

describe('a quote of 9 minor units, at the Match Deadline', () => {
  test('matched on the minimum stake; the absent Worker ends cancelled-absent, the floor slashed', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-minimum-stake'](h);
      const contractId = run.contractId;
      assert.deepEqual(run.outcome, { created: true, status: 'cancelled-absent', contractId });
      const view = await h.view(run.handle);
      assert.deepEqual(
        [view.worker, view.price, view.workerStake, view.escrowedFunds],
        [OTHER, '9', FLOOR.toString(), '9'],
      );
      const toClient = (FLOOR * 8000n) / 10_000n;
      await h.assertBalances({
        [CLIENT]: b(FUNDS + toClient),
        [OTHER]: b(WORKER_FUNDS - FLOOR),
        treasury: b(FLOOR - toClient),
      });
      await h.assertNothingPending(contractId);
      const stakes = (await h.ledger.holdsByContract(contractId)).filter((x) => x.kind === 'stake');
      assert.deepEqual(
        stakes.map((x) => x.amount),
        [FLOOR],
      );
      await h.ledger.audit();
    }));
});
