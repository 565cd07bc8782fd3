// Matching (docs/protocol.md §5) and creation (§3): the open-tender race, a failed stake lock that does not block
// the next caller, insufficient escrow at creation, duplicate contract IDs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { acceptUpdate, cancelUpdate, contractQuery, FailureType } from '../../workflows/definitions';
import { assertRefused, useWorkflowSuite } from './harness';
import { CLIENT, FUNDS, OTHER, POOR, PRICE, WORKER, WORKER_FUNDS, WORKER_STAKE } from '../support/fixtures';
import { OPEN_TENDER, PATHS } from './scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

describe('open tender and creation (time-skipping server, real ledger on SQLite)', () => {
  test('a first caller whose stake lock fails (402, nothing locked) does not block the next', () =>
    withHarness(async (h) => {
      const run = await PATHS['open-tender-failed-stake'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE),
        [OTHER]: b(WORKER_FUNDS + PRICE),
        [POOR]: b(WORKER_STAKE - 1n),
        [WORKER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(run.contractId);
    }));

  test('concurrent accepts: exactly one matched, every other caller refused with Conflict and nothing locked', () =>
    withHarness(async (h) => {
      const bidders = Array.from({ length: 8 }, (_, i) => '0x' + (i + 16).toString(16).repeat(20));
      for (const bidder of bidders) await h.fund(bidder, WORKER_FUNDS);
      const input = await h.input(OPEN_TENDER);
      const { handle } = await h.create(input);
      const results = await Promise.allSettled(
        bidders.map((caller) => handle.executeUpdate(acceptUpdate, { args: [{ caller }] })),
      );
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [bidders[i]!] : []));
      assert.equal(won.length, 1);
      for (const r of results) {
        if (r.status === 'fulfilled') continue;
        const error = r.reason as WorkflowUpdateFailedError;
        assert.ok(error.cause instanceof ApplicationFailure);
        assert.equal(error.cause.type, FailureType.Conflict);
      }
      const view = await handle.query(contractQuery);
      assert.equal(view.status, 'matched');
      assert.equal(view.worker, won[0]);
      for (const bidder of bidders) {
        assert.deepEqual(
          await h.balance(bidder),
          bidder === won[0] ? b(WORKER_FUNDS - WORKER_STAKE, WORKER_STAKE) : b(WORKER_FUNDS),
        );
      }
      const stakes = (await h.ledger.holdsByContract(input.contractId)).filter((x) => x.kind === 'stake');
      assert.equal(stakes.length, 1);
      await assertRefused(
        handle.executeUpdate(cancelUpdate, { args: [{ caller: CLIENT }] }),
        FailureType.Conflict,
        'wrong_state',
      );
      await handle.terminate('test over');
    }));

  test('insufficient escrow at creation: the creating update fails with 402 and nothing is held', () =>
    withHarness(async (h) => {
      const run = await PATHS['not-created-insufficient-funds'](h);
      assert.deepEqual(run.outcome, {
        created: false,
        reason: 'insufficient_funds',
        contractId: run.contractId,
      });
      const handle = run.handle;
      await h.assertBalances({ [CLIENT]: b(FUNDS), treasury: b(0n) });
      assert.deepEqual(await h.ledger.holdsByContract(run.contractId), []);
      assert.equal((await handle.query(contractQuery)).created, false);
      const description = await handle.describe();
      // No contract attribute: the start carried the first ones, the refusal took them back (and the
      // workflow records no patch, so no TemporalChangeVersion either).
      const keys = description.typedSearchAttributes.getAll().map((a) => a.key.name);
      assert.deepEqual(keys, []);
    }));

  test('a second start of the same contract ID is refused', () =>
    withHarness(async (h) => {
      const input = await h.input();
      const { handle } = await h.create(input);
      await assert.rejects(h.create(input), WorkflowExecutionAlreadyStartedError);
      await h.assertBalances({ [CLIENT]: b(FUNDS - PRICE, PRICE), [WORKER]: b(WORKER_FUNDS) });
      await handle.executeUpdate(cancelUpdate, { args: [{ caller: CLIENT }] });
      await h.assertBalances({ [CLIENT]: b(FUNDS), [WORKER]: b(WORKER_FUNDS) });
      assert.equal((await handle.result()).created, true);
    }));
});
