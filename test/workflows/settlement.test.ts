// Privacy-preserving review (docs/protocol.md §7, §7a): approve, auto-approve at the Review Deadline, and the
// Signal path — each with the exact balances of every party.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsQuery } from '../../workflows/definitions';
import {
  clientKey,
  contractCodeKey,
  contractStatusKey,
  nextDeadlineKey,
  workerKey,
} from '../../workflows/search-attributes';
import { useWorkflowSuite } from './harness';
import { CLIENT, FUNDS, OTHER, PRICE, STRANGER, WORKER, WORKER_FUNDS } from '../support/fixtures';
import { PATHS } from './scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

const paidInFull = {
  [CLIENT]: b(FUNDS - PRICE),
  [WORKER]: b(WORKER_FUNDS + PRICE),
  [OTHER]: b(WORKER_FUNDS),
  treasury: b(0n),
};

describe('review and settlement (time-skipping server, real ledger on SQLite)', () => {
  test('approve: the whole escrow to the Worker, its stake returned, in one ledger batch', () =>
    withHarness(async (h) => {
      const run = await PATHS['settled-approved'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances(paidInFull);
      await h.assertNothingPending(run.contractId);
      const settlementOps = new Set(
        (await h.ledger.postingsByContract(run.contractId))
          .filter((p) => p.opId.startsWith(`${run.contractId}:settlement:`))
          .map((p) => p.opId),
      );
      assert.deepEqual([...settlementOps].sort(), [
        `${run.contractId}:settlement:0`,
        `${run.contractId}:settlement:1`,
      ]);
      const view = await h.view(run.handle);
      assert.deepEqual(view.criteriaMet, ['met', 'met']);
      const attributes = (await run.handle.describe()).typedSearchAttributes;
      assert.equal(attributes.get(contractStatusKey), 'settled-fully-met');
      assert.equal(attributes.get(contractCodeKey), 'FDP');
      assert.equal(attributes.get(clientKey), CLIENT);
      assert.equal(attributes.get(workerKey), WORKER);
      assert.equal(attributes.get(nextDeadlineKey), undefined);
      assert.equal(view.payment, PRICE.toString());
      const types = (await run.handle.query(eventsQuery)).map((e) => e.type);
      assert.deepEqual(
        types.filter((t) => t !== 'contract.message-rejected'),
        [
          'contract.created',
          'contract.matched',
          'contract.delivered',
          'agent.verified',
          'contract.resolved',
          'contract.settled',
        ],
      );
    }));

  test('auto-approve at the Review Deadline (open tender, losers refused)', () =>
    withHarness(async (h) => {
      const run = await PATHS['settled-auto-approved'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances(paidInFull);
      await h.assertNothingPending(run.contractId);
      const resolved = (await run.handle.query(eventsQuery)).find((e) => e.type === 'contract.resolved');
      assert.equal(resolved?.type === 'contract.resolved' && resolved.source, 'review-timeout');
    }));

  test('Signal path: rejected signals change nothing and are logged; a valid cancel signal cancels', () =>
    withHarness(async (h) => {
      const run = await PATHS['signals-rejected-then-cancelled'](h);
      assert.equal(run.outcome?.created && run.outcome.status, 'cancelled-by-client');
      await h.assertBalances({
        [CLIENT]: b(FUNDS),
        [OTHER]: b(WORKER_FUNDS),
        [STRANGER]: b(0n),
        treasury: b(0n),
      });
      const rejected = (await run.handle.query(eventsQuery)).flatMap((e) =>
        e.type === 'contract.message-rejected' ? [[e.message, e.actor, e.code, e.field ?? null]] : [],
      );
      assert.deepEqual(rejected, [
        ['approve', STRANGER, 'not_client', null],
        ['withdraw', CLIENT, 'not_worker', null],
        ['accept', OTHER, 'not_worker', null],
        ['cancel', 'system', 'bad_caller', 'caller'],
      ]);
    }));
});
