// A zero Worker Stake at the Match Deadline (time-skipping server, real ledger on SQLite): an auction whose
// only quote is so small that its Worker Stake rounds to 0 is matched at the deadline with no stake
// hold (before, the ledger refused the zero hold and the workflow failed with the budget held). The
// absent Worker's "slash" of a stake that does not exist moves nothing; everything comes back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AUCTION_PATHS } from '../workflows/auction-scenarios';
import { useWorkflowSuite } from '../workflows/harness';
import { BUDGET, CLIENT, FUNDS, OTHER, WORKER_FUNDS } from '../support/fixtures';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

describe('a Worker Stake that rounds to 0, at the Match Deadline', () => {
  test('matched with no stake hold; the absent Worker ends cancelled-absent; nothing held, nothing moved', () =>
    withHarness(async (h) => {
      const run = await AUCTION_PATHS['auction-zero-stake'](h);
      const contractId = run.contractId;
      assert.deepEqual(run.outcome, { created: true, status: 'cancelled-absent', contractId });
      const view = await h.view(run.handle);
      assert.deepEqual(
        [view.worker, view.price, view.workerStake, view.escrowedFunds],
        [OTHER, '9', '0', '9'],
      );
      await h.assertBalances({ [CLIENT]: b(FUNDS), [OTHER]: b(WORKER_FUNDS), treasury: b(0n) });
      await h.assertNothingPending(contractId);
      const holds = await h.ledger.holdsByContract(contractId);
      assert.equal(
        holds.some((x) => x.kind === 'stake' || x.amount === 0n),
        false,
        'no stake hold was opened',
      );
      assert.ok(holds.some((x) => x.kind === 'escrow' && x.amount === BUDGET));
      await h.ledger.audit();
    }));
});
