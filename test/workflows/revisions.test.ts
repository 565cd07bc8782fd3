// Change requests on the time-skipping server with the real ledger (docs/protocol.md §7 "Request
// changes"): the deadline arithmetic, the bound, the roles, and that a Worker that delivered is never
// absent — each with the exact balances of every party.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  acceptUpdate,
  approveUpdate,
  deliverUpdate,
  disputeUpdate,
  eventsQuery,
  FailureType,
  requestChangesUpdate,
  withdrawUpdate,
} from '../../workflows/definitions';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { assertRefused, delivery, useWorkflowSuite } from './harness';
import {
  CLIENT,
  FUNDS,
  HOUR,
  MINUTE,
  OTHER,
  PRICE,
  STRANGER,
  WORKER,
  WORKER_FUNDS,
} from '../support/fixtures';
import { b } from '../support/balances';
import { send, started } from './scenarios';
import { REVISION_PATHS } from './revision-scenarios';

const withHarness = useWorkflowSuite();

const paidInFull = {
  [CLIENT]: b(FUNDS - PRICE),
  [WORKER]: b(WORKER_FUNDS + PRICE),
  treasury: b(0n),
};

describe('change requests (time-skipping server, real ledger on SQLite)', () => {
  test('two change requests honoured, a third refused; redelivered and approved: paid in full', () =>
    withHarness(async (h) => {
      const run = await REVISION_PATHS['revised-redelivered-approved'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances(paidInFull);
      await h.assertNothingPending(run.contractId);
      const events = await run.handle.query(eventsQuery);
      const verdicts = events.flatMap((e) => (e.type === 'agent.verified' ? [[e.verdict, e.criteria]] : []));
      assert.deepEqual(verdicts, [
        ['revise', ['c2']],
        ['revise', ['c1', 'c2']],
        ['pass', ['c1', 'c2']],
      ]);
      assert.equal(events.filter((e) => e.type === 'contract.delivered').length, 3);
    }));

  test('no redelivery: the delivery stands at the moved deadline, never absent; the review timeout approves', () =>
    withHarness(async (h) => {
      const run = await REVISION_PATHS['revised-delivery-stands'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances(paidInFull);
      await h.assertNothingPending(run.contractId);
      const resolved = (await run.handle.query(eventsQuery)).find((e) => e.type === 'contract.resolved');
      assert.equal(resolved?.type === 'contract.resolved' && resolved.source, 'review-timeout');
    }));

  test('deadlines: a request near the end gives the Worker revisionWindow and moves the review as far', () =>
    withHarness(async (h) => {
      const { handle, input } = await started(h);
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      const terms = input.terms.deadlines;
      const view = await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [1], note: 'n' });
      const at = Date.parse(view.revisions[0]!.requestedAt);
      const movedDelivery = at + DEFAULT_PARAMS.revisionWindow;
      const shift = movedDelivery - terms.delivery;
      assert.equal(Date.parse(view.deadlines.delivery), movedDelivery);
      assert.equal(Date.parse(view.deadlines.review!), terms.review! + shift);
      assert.equal(view.revisions[0]!.deliveryDeadline, view.deadlines.delivery);
      assert.deepEqual(view.nextDeadline, {
        kind: 'withdrawal',
        at: new Date(terms.withdrawal).toISOString(),
      });
      // A Worker that delivered cannot withdraw (it redelivers or its delivery stands).
      await assertRefused(
        send(handle, withdrawUpdate, { caller: WORKER }),
        FailureType.Conflict,
        'already_delivered',
      );
      await h.sleep(2 * HOUR);
      assert.deepEqual((await h.view(handle)).nextDeadline, {
        kind: 'delivery',
        at: view.deadlines.delivery,
      });
    }));

  test('deadlines: a request while the delivery deadline is further off than the window moves nothing', () =>
    withHarness(async (h) => {
      const params = { ...DEFAULT_PARAMS, revisionWindow: 30 * MINUTE };
      const { handle, input } = await started(h, {}, params);
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      const view = await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] });
      assert.equal(Date.parse(view.deadlines.delivery), input.terms.deadlines.delivery);
      assert.equal(Date.parse(view.deadlines.review!), input.terms.deadlines.review);
      assert.equal(view.maxRevisions, 2);
    }));

  test('refusals: Worker and stranger 403; not in review, bad criteria or note 400, standard mode 409', () =>
    withHarness(async (h) => {
      const { handle } = await started(h);
      await send(handle, acceptUpdate, { caller: WORKER });
      await assertRefused(
        send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] }),
        FailureType.Conflict,
        'wrong_state',
      );
      await send(handle, deliverUpdate, delivery(WORKER));
      for (const caller of [WORKER, STRANGER]) {
        await assertRefused(
          send(handle, requestChangesUpdate, { caller, criteria: [0] }),
          FailureType.Forbidden,
          'not_client',
        );
      }
      for (const criteria of [[], [2], [0, 0]]) {
        await assertRefused(
          send(handle, requestChangesUpdate, { caller: CLIENT, criteria }),
          FailureType.BadInput,
          'invalid_input',
        );
      }
      await assertRefused(
        send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0], note: 'x'.repeat(4001) }),
        FailureType.BadInput,
        'invalid_input',
      );
      assert.equal((await h.view(handle)).revisionCount, 0);
      // After a dispute the review is over.
      await send(handle, disputeUpdate, { caller: CLIENT });
      await assertRefused(
        send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] }),
        FailureType.Conflict,
        'wrong_state',
      );

      const standard = await started(h, { verificationMode: 'standard' });
      await send(standard.handle, acceptUpdate, { caller: WORKER });
      await assertRefused(
        send(standard.handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] }),
        FailureType.Conflict,
        'standard_mode',
      );
    }));

  test('maxRevisions 0: the first request is refused', () =>
    withHarness(async (h) => {
      const { handle } = await started(h, {}, { ...DEFAULT_PARAMS, maxRevisions: 0 });
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      await assertRefused(
        send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] }),
        FailureType.Conflict,
        'revisions_exhausted',
      );
      assert.equal((await send(handle, approveUpdate, { caller: CLIENT })).status, 'settled-fully-met');
      await h.assertBalances({ ...paidInFull, [OTHER]: b(WORKER_FUNDS) });
    }));
});
