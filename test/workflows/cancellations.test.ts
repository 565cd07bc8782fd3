// Every cancellation reason of docs/protocol.md §4 with the exact balances of every party afterwards.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import { deliverUpdate, eventsQuery } from '../../workflows/definitions';
import { delivery, useWorkflowSuite } from './harness';
import { CLIENT, FUNDS, OTHER, WORKER, WORKER_FUNDS, WORKER_STAKE } from '../support/fixtures';
import { PATHS } from './scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

/** Nobody matched: every party as funded, nothing held. */
const untouched = {
  [CLIENT]: b(FUNDS),
  [WORKER]: b(WORKER_FUNDS),
  [OTHER]: b(WORKER_FUNDS),
  treasury: b(0n),
};

describe('cancellations (time-skipping server, real ledger on SQLite)', () => {
  test('cancelled-by-client: escrow refunded; a wrong-role cancel refused', () =>
    withHarness(async (h) => {
      const run = await PATHS['cancelled-by-client'](h);
      assert.deepEqual(run.outcome, {
        created: true,
        status: 'cancelled-by-client',
        contractId: run.contractId,
      });
      await h.assertBalances(untouched);
      await h.assertNothingPending(run.contractId);
      const view = await h.view(run.handle);
      assert.equal(view.cancellationReason, 'by-client');
      assert.equal(view.workerStake, null);
    }));

  test('cancelled-unmatched by decline: escrow refunded', () =>
    withHarness(async (h) => {
      const run = await PATHS['cancelled-unmatched-declined'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'cancelled-unmatched');
      await h.assertBalances(untouched);
      await h.assertNothingPending(run.contractId);
    }));

  test('cancelled-unmatched at the Match Deadline: escrow refunded', () =>
    withHarness(async (h) => {
      const run = await PATHS['cancelled-unmatched-deadline'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'cancelled-unmatched');
      await h.assertBalances(untouched);
      await h.assertNothingPending(run.contractId);
      const cancelled = (await run.handle.query(eventsQuery)).at(-1);
      assert.equal(cancelled?.type, 'contract.cancelled');
      assert.equal(cancelled.actor, 'system');
    }));

  test('cancelled-withdrawn: 20% of the stake to the Client, the rest back to the Worker', () =>
    withHarness(async (h) => {
      const run = await PATHS['cancelled-withdrawn'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'cancelled-withdrawn');
      const slash = (WORKER_STAKE * 2000n) / 10_000n; // 50 000
      await h.assertBalances({
        [CLIENT]: b(FUNDS + slash),
        [WORKER]: b(WORKER_FUNDS - slash),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
    }));

  test('cancelled-absent: withdrawal refused after its deadline; the whole stake slashed 80/20; a late delivery refused', () =>
    withHarness(async (h) => {
      const run = await PATHS['cancelled-absent'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'cancelled-absent');
      const toClient = (WORKER_STAKE * 8000n) / 10_000n; // 200 000
      const expected = {
        [CLIENT]: b(FUNDS + toClient),
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE),
        treasury: b(WORKER_STAKE - toClient),
      };
      await h.assertBalances(expected);
      await h.assertNothingPending(run.contractId);
      // The workflow has completed: the server refuses the Update (the API answers 409 for a closed contract).
      await assert.rejects(
        run.handle.executeUpdate(deliverUpdate, { args: [delivery(WORKER)] }),
        WorkflowNotFoundError,
      );
      await h.assertBalances(expected);
      assert.equal((await h.view(run.handle)).status, 'cancelled-absent');
    }));
});
