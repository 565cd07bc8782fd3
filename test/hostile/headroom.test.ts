// The Temporal budget, the parties' headroom (time-skipping server, real ledger on SQLite): a stranger
// floods an auction with refused Signals until its history passes the non-party threshold. From then
// on a stranger's quote is refused (409 contract_busy, no history), while the Client's award, the
// Worker's delivery and the Client's approval still get through and settle with exact balances. The
// event log keeps at most 3 of the stranger's refusals.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WorkflowHandle } from '@temporalio/client';
import {
  approveSignal,
  approveUpdate,
  awardUpdate,
  deliverUpdate,
  eventsQuery,
  FailureType,
  quoteUpdate,
} from '../../workflows/definitions';
import { BUDGET } from '../../workflows/rules/budget';
import { auctionTerms } from '../workflows/auction-scenarios';
import { assertRefused, delivery, useWorkflowSuite } from '../workflows/harness';
import { CLIENT, FUNDS, OTHER, STRANGER, WORKER, WORKER_FUNDS } from '../support/fixtures';
import { finish, send, started } from '../workflows/scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

const BATCH = 100;

/** How many Updates the run's history records as accepted. */
async function acceptedUpdates(handle: WorkflowHandle): Promise<number> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes).length;
}

describe("the parties' headroom (the Temporal budget)", () => {
  test('past the non-party threshold a stranger is refused; the parties settle', () =>
    withHarness(async (h) => {
      const { input, handle } = await started(h, auctionTerms('privacy-preserving'));
      await send(handle, quoteUpdate, { caller: OTHER, price: '3000000' });

      let signals = 0;
      while ((await handle.describe()).historyLength < BUDGET.nonPartyHistoryEvents) {
        await Promise.all(
          Array.from({ length: BATCH }, () => handle.signal(approveSignal, { caller: STRANGER })),
        );
        signals += BATCH;
      }
      const before = await acceptedUpdates(handle);
      await assertRefused(
        handle.executeUpdate(quoteUpdate, { args: [{ caller: WORKER, price: '1000000' }] }),
        FailureType.Conflict,
        'contract_busy',
      );
      assert.equal(await acceptedUpdates(handle), before, 'a refused Update writes no history');

      const awarded = await send(handle, awardUpdate, { caller: CLIENT });
      assert.deepEqual([awarded.status, awarded.worker, awarded.quoteCount], ['matched', OTHER, 1]);
      await send(handle, deliverUpdate, delivery(OTHER));
      const receipt = await handle.executeUpdate(approveUpdate, { args: [{ caller: CLIENT }] });
      assert.deepEqual(
        [receipt.status, receipt.worker, receipt.workerStake],
        ['settled-fully-met', OTHER, '300000'],
      );
      const run = await finish(input.contractId, handle);
      assert.deepEqual(run.outcome, {
        created: true,
        status: 'settled-fully-met',
        contractId: input.contractId,
      });
      await h.assertBalances({
        [CLIENT]: b(FUNDS - 3_000_000n),
        [OTHER]: b(WORKER_FUNDS + 3_000_000n),
        [WORKER]: b(WORKER_FUNDS),
        treasury: b(0n),
      });
      await h.assertNothingPending(input.contractId);

      const rejected = (await handle.query(eventsQuery)).filter(
        (e) => e.type === 'contract.message-rejected' && e.actor === STRANGER,
      );
      assert.equal(rejected.length, BUDGET.loggedRejectionsPerAgent, `${signals} signals sent`);
      const length = (await handle.describe()).historyLength;
      assert.ok(length < 10_240, `${length} history events`);
    }));
});
