// A Signal whose step fails for good (an activity refusal that is not a rule's, e.g. a ledger that
// refuses the stake lock as bad input) must not fail the workflow run, which would leave the escrow
// held for ever: the failure is logged as a rejected message and the honest flow goes on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import type { Activities } from '../../activities';
import {
  acceptSignal,
  acceptUpdate,
  approveUpdate,
  deliverUpdate,
  eventsQuery,
} from '../../workflows/definitions';
import { delivery, useWorkflowSuite } from '../workflows/harness';
import { CLIENT, FUNDS, PRICE, WORKER, WORKER_FUNDS } from '../support/fixtures';
import { send, started } from '../workflows/scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

/** A ledger that refuses the first stake lock for good, as it refuses a malformed operation. */
function refuseFirstStakeLock(activities: Activities): Activities {
  let refused = false;
  return {
    ...activities,
    async lockStake(input) {
      if (!refused) {
        refused = true;
        throw ApplicationFailure.nonRetryable('injected: the stake lock is malformed', 'BadInput');
      }
      return activities.lockStake(input);
    },
  };
}

test('a Signal whose stake lock fails for good is logged, the run goes on and settles exactly', () =>
  withHarness(async (h) => {
    const { input, handle } = await started(h);
    await handle.signal(acceptSignal, { caller: WORKER });
    let events = await handle.query(eventsQuery);
    for (let i = 0; i < 100 && !events.some((e) => e.type === 'contract.message-rejected'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      events = await handle.query(eventsQuery);
    }
    const rejected = events.find((e) => e.type === 'contract.message-rejected');
    assert.ok(rejected && rejected.type === 'contract.message-rejected', 'the failed Signal is logged');
    assert.equal(rejected.message, 'accept');
    assert.equal(rejected.code, 'step_failed');
    assert.equal((await h.view(handle)).status, 'created');
    await h.assertBalances({ [CLIENT]: b(FUNDS - PRICE, PRICE), [WORKER]: b(WORKER_FUNDS) });

    await send(handle, acceptUpdate, { caller: WORKER });
    await send(handle, deliverUpdate, delivery(WORKER));
    await send(handle, approveUpdate, { caller: CLIENT });
    assert.deepEqual(await handle.result(), {
      created: true,
      status: 'settled-fully-met',
      contractId: input.contractId,
    });
    await h.assertBalances({ [CLIENT]: b(FUNDS - PRICE), [WORKER]: b(WORKER_FUNDS + PRICE) });
    await h.assertNothingPending(input.contractId);
    await h.ledger.audit();
  }, refuseFirstStakeLock));
