// No failure may leave money held. A money step the ledger refuses for good does
// not fail the workflow with its holds held: the contract is flagged needs-operator (event, search
// attribute, query), keeps every hold, and the operator's retry settles it exactly, or the operator's
// release returns every hold to its owner (cancelled-by-operator). Time-skipping server, real ledger
// on SQLite; the failures are injected by a test-only `settle` that refuses once, and by corrupting a
// hold in the real ledger so the settlement batch is refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Activities } from '../../activities';
import { agentOwner } from '../../store/ledger';
import {
  acceptUpdate,
  approveUpdate,
  deliverUpdate,
  eventsQuery,
  FailureType,
} from '../../workflows/definitions';
import { resolveStuckUpdate } from '../../workflows/operator-messages';
import { contractStatusKey, needsOperatorKey } from '../../workflows/search-attributes';
import { assertRefused, delivery, useWorkflowSuite } from '../workflows/harness';
import {
  BAS,
  BA_BOND,
  BA_FUNDS,
  CLIENT,
  ELIGIBILITY_STAKE,
  FUNDS,
  PRICE,
  WORKER,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import { send, started } from '../workflows/scenarios';
import { HOSTILE_PATHS, waitingForOperator } from './paths';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

/** A `settle` that refuses its first settlement batch as the ledger refuses a resolved hold. */
function refuseFirstSettlement(activities: Activities): Activities {
  let refused = false;
  return {
    ...activities,
    async settle(input) {
      if (input.step === 'settlement' && !refused) {
        refused = true;
        throw ApplicationFailure.nonRetryable('injected: hold is not open', 'HoldNotOpen');
      }
      return activities.settle(input);
    },
  };
}

async function eventTypes(handle: WorkflowHandle): Promise<string[]> {
  return (await handle.query(eventsQuery)).map((e) => e.type);
}

describe('needs-operator: a refused money step waits for the operator, holding everything', () => {
  test('a settlement refused once: flagged, nothing moved, the operator retries and it settles exactly', () =>
    withHarness(async (h) => {
      const { input, handle } = await started(h);
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      // The approval's answer waits for the settlement, which now waits for the operator.
      const approval = send(handle, approveUpdate, { caller: CLIENT });
      const stuck = await waitingForOperator(handle);
      assert.equal(stuck.step, 'settlement');
      assert.equal(stuck.failureType, 'HoldNotOpen');

      // Visible, not terminal, and every hold still held: nothing moved.
      const view = await h.view(handle);
      assert.equal(view.status, 'under-review');
      assert.equal(view.criteriaMet, null);
      const attributes = (await handle.describe()).typedSearchAttributes;
      assert.equal(attributes.get(needsOperatorKey), true);
      assert.equal(attributes.get(contractStatusKey), 'under-review');
      const types = await eventTypes(handle);
      assert.equal(types.at(-1), 'contract.needs-operator');
      assert.ok(!types.includes('contract.resolved'), 'the refused resolution left no event');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE, PRICE),
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE, WORKER_STAKE),
      });
      // A stranger's message cannot move it on; only the operator's Update does.
      await assertRefused(
        handle.executeUpdate(resolveStuckUpdate, { args: [{ action: 'later' as never }] }),
        FailureType.BadInput,
        'invalid',
      );

      const result = await handle.executeUpdate(resolveStuckUpdate, { args: [{ action: 'retry' }] });
      assert.deepEqual(result, {
        contractId: input.contractId,
        status: 'settled-fully-met',
        needsOperator: null,
      });
      assert.equal((await approval).status, 'settled-fully-met');
      assert.deepEqual(await handle.result(), {
        created: true,
        status: 'settled-fully-met',
        contractId: input.contractId,
      });
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE),
        [WORKER]: b(WORKER_FUNDS + PRICE),
        treasury: b(0n),
      });
      await h.assertNothingPending(input.contractId);
      await h.ledger.audit();
      assert.equal((await handle.describe()).typedSearchAttributes.get(needsOperatorKey), false);
      assert.deepEqual((await eventTypes(handle)).slice(-5), [
        'agent.verified',
        'contract.needs-operator',
        'contract.operator-resolved',
        'contract.resolved',
        'contract.settled',
      ]);
    }, refuseFirstSettlement));

  test('a hold corrupted in the ledger: the tally is refused; the operator releases every hold', () =>
    withHarness(async (h) => {
      const { contractId, handle, outcome } = await HOSTILE_PATHS['needs-operator-release'](h);
      assert.deepEqual(outcome, { created: true, status: 'cancelled-by-operator', contractId });
      // Every hold back to its owner: escrow, stake (by the corruption), each seat's bond (released to
      // the BA's available balance, out of its eligibility stake).
      await h.assertBalances({
        [CLIENT]: b(FUNDS),
        [WORKER]: b(WORKER_FUNDS),
        treasury: b(0n),
        ...Object.fromEntries(
          BAS.map((ba) => [ba, b(BA_FUNDS - ELIGIBILITY_STAKE + BA_BOND, ELIGIBILITY_STAKE - BA_BOND)]),
        ),
      });
      await h.assertNothingPending(contractId);
      await h.ledger.audit();
      for (const ba of BAS) assert.deepEqual(await h.ledger.panels.openPanelsOf(ba), [], `${ba} seated`);
      for (const ba of BAS) assert.equal((await h.ledger.balances(agentOwner(ba))).OCT.available, 0n);
      const view = await h.view(handle);
      assert.equal(view.cancellationReason, 'by-operator');
      const events = await handle.query(eventsQuery);
      assert.deepEqual(
        events.slice(-3).map((e) => e.type),
        ['contract.needs-operator', 'contract.operator-resolved', 'contract.cancelled'],
      );
      assert.ok(!events.some((e) => e.type === 'contract.resolved'), 'the refused tally left no event');
      const cancelled = events.at(-1);
      assert.ok(cancelled?.type === 'contract.cancelled');
      assert.equal(cancelled.actor, 'operator');
      assert.deepEqual(
        cancelled.holds.map((s) => [s.hold, s.parts]),
        [
          ['escrow', [{ role: 'client', amount: PRICE.toString() }]],
          ['workerStake', [{ role: 'worker', amount: WORKER_STAKE.toString() }]],
        ],
      );
    }));
});
