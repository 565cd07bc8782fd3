// Contracts with milestones on the time-skipping server with the real ledger (docs/protocol.md §6a):
// three milestones worked one at a time, each settled in its own batch, with the exact balances of
// every party after each stage; a milestone disputed and partially met by a panel; a Worker absent on
// the second milestone; change requests within milestones (maxRevisions per milestone).
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
} from '../../workflows/definitions';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { assertRefused, delivery, useWorkflowSuite, type Harness } from './harness';
import { BAS, CLIENT, FUNDS, HOUR, PANEL_FEE, PRICE, WORKER, WORKER_FUNDS } from '../support/fixtures';
import { b } from '../support/balances';
import { finish, send, voteAll } from './scenarios';
import {
  AMOUNTS,
  clientAfter,
  deliverAndApprove,
  MILESTONE_PATHS,
  STAKE_SHARES,
  startedWithMilestones,
  workerAfter,
} from './milestone-scenarios';

const withHarness = useWorkflowSuite();

/** No USDC created or lost: every party's available and held together are what was deposited. */
async function assertConserved(h: Harness, parties: readonly string[], deposited: bigint): Promise<void> {
  let total = 0n;
  for (const p of [...parties, 'treasury']) {
    const { available, held } = await h.balance(p);
    total += available + held;
  }
  assert.equal(total, deposited, 'USDC conserved');
}

describe('milestones (time-skipping server, real ledger on SQLite)', () => {
  test('three milestones approved stage by stage: each paid and its stake share returned in its own batch', () =>
    withHarness(async (h) => {
      const { contractId, handle } = await startedWithMilestones(h);
      const created = await h.view(handle);
      assert.deepEqual(
        created.milestones?.map((m) => [m.status, m.amount]),
        [
          ['created', '750000'],
          ['pending', '750000'],
          ['pending', '1000000'],
        ],
      );
      assert.deepEqual(created.acceptanceCriteria, [{ text: 'outline covers every section' }]);
      await h.assertBalances({ [CLIENT]: b(FUNDS - PRICE, PRICE) });
      await send(handle, acceptUpdate, { caller: WORKER });
      await h.assertBalances({ [CLIENT]: clientAfter(0, FUNDS), [WORKER]: workerAfter(0, WORKER_FUNDS) });
      for (let i = 0; i < 3; i++) {
        const view = await deliverAndApprove(handle);
        await h.assertBalances({
          [CLIENT]: clientAfter(i + 1, FUNDS),
          [WORKER]: workerAfter(i + 1, WORKER_FUNDS),
          treasury: b(0n),
        });
        assert.equal(view.currentMilestone, Math.min(i + 1, 2));
        assert.equal(view.milestones![i]!.status, 'settled-fully-met');
        assert.equal(view.milestones![i]!.payment, AMOUNTS[i]!.toString());
        if (i < 2) {
          assert.equal(view.status, 'matched');
          assert.equal(view.milestones![i + 1]!.status, 'matched');
          assert.equal(view.acceptanceCriteria.length, i === 0 ? 2 : 1);
          assert.equal(view.criteriaMet, null);
          assert.equal(view.delivery, null);
        }
      }
      const run = await finish(contractId, handle);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances({ [CLIENT]: b(FUNDS - PRICE), [WORKER]: b(WORKER_FUNDS + PRICE) });
      await h.assertNothingPending(contractId);
      const events = await handle.query(eventsQuery);
      const settled = events.flatMap((e) =>
        e.type === 'contract.milestone-settled' ? [[e.milestone, e.status, e.payment]] : [],
      );
      assert.deepEqual(settled, [
        [0, 'settled-fully-met', '750000'],
        [1, 'settled-fully-met', '750000'],
        [2, 'settled-fully-met', '1000000'],
      ]);
      assert.equal(events.filter((e) => e.type === 'contract.settled').length, 1);
      // One outcome record per party per milestone, none for the whole contract.
      const records = (await h.outcomes.list(0, 100)).filter((r) => r.contractId === contractId);
      assert.deepEqual(
        records.map((r) => [r.milestoneIndex, r.role, r.amount]),
        [0, 0, 1, 1, 2, 2].map((i, k) => [i, k % 2 === 0 ? 'client' : 'worker', AMOUNTS[i]!.toString()]),
      );
    }));

  test('milestone 2 disputed and partially met by the panel; milestone 3 goes on and is paid in full', () =>
    withHarness(async (h) => {
      await h.makeEligible();
      const { contractId, handle } = await startedWithMilestones(h, {}, { gap: 30 });
      await send(handle, acceptUpdate, { caller: WORKER });
      await deliverAndApprove(handle);
      await send(handle, deliverUpdate, delivery(WORKER));
      // The Dispute Bond is on the milestone's amount (5 % of 0.75), with the panel's fee.
      const bond = (AMOUNTS[1] * BigInt(DEFAULT_PARAMS.disputeBondBps)) / 10_000n;
      const disputed = await send(handle, disputeUpdate, { caller: CLIENT, claims: ['met', 'not met'] });
      assert.equal(disputed.status, 'disputed');
      assert.equal(disputed.disputeBond, bond.toString());
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE - bond - PANEL_FEE, PRICE - AMOUNTS[0] + bond + PANEL_FEE),
      });
      await voteAll(handle, [
        [BAS[0], ['met', 'not met']],
        [BAS[1], ['met', 'not met']],
        [BAS[2], ['met', 'met']],
      ]);
      const tallied = await h.view(handle);
      assert.equal(tallied.status, 'resolved');
      assert.deepEqual(tallied.criteriaMet, ['met', 'not met']);
      await h.sleep(DEFAULT_PARAMS.appealWindow + HOUR); // the appeal window passes: milestone 2 settles
      const half = AMOUNTS[1] / 2n;
      const next = await h.view(handle);
      assert.equal(next.currentMilestone, 2);
      assert.equal(next.status, 'matched');
      assert.equal(next.milestones![1]!.status, 'settled-partially-met');
      assert.equal(next.milestones![1]!.payment, half.toString());
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE + half - PANEL_FEE, AMOUNTS[2]),
        [WORKER]: b(WORKER_FUNDS - STAKE_SHARES[2] + AMOUNTS[0] + half, STAKE_SHARES[2]),
      });
      const last = await deliverAndApprove(handle);
      assert.equal(last.status, 'settled-partially-met');
      const run = await finish(contractId, handle);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-partially-met');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE + half - PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS + AMOUNTS[0] + half + AMOUNTS[2]),
      });
      await h.assertNothingPending(contractId);
      for (const ba of BAS) assert.equal((await h.balance(ba)).held > 0n, true); // eligibility only
      await assertConserved(h, [CLIENT, WORKER, ...BAS], FUNDS + WORKER_FUNDS + 3n * 200_000_000n);
    }));

  test('a Worker absent on milestone 2 is absent for the rest: milestone 1 stands, the rest refunded, its stake share slashed', () =>
    withHarness(async (h) => {
      const { contractId, handle } = await startedWithMilestones(h);
      await send(handle, acceptUpdate, { caller: WORKER });
      await deliverAndApprove(handle);
      await h.sleep(6 * HOUR); // past milestone 2's delivery deadline (t0 + 5 h)
      const run = await finish(contractId, handle);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-partially-met');
      const restOfStake = STAKE_SHARES[1] + STAKE_SHARES[2];
      const toClient = (restOfStake * BigInt(DEFAULT_PARAMS.absentSlashClientBps)) / 10_000n;
      await h.assertBalances({
        [CLIENT]: b(FUNDS - AMOUNTS[0] + toClient),
        [WORKER]: b(WORKER_FUNDS - restOfStake + AMOUNTS[0]),
        treasury: b(restOfStake - toClient),
      });
      await h.assertNothingPending(contractId);
      const view = await h.view(handle);
      assert.deepEqual(
        view.milestones!.map((m) => [m.status, m.payment]),
        [
          ['settled-fully-met', '750000'],
          ['cancelled-absent', '0'],
          ['cancelled-absent', '0'],
        ],
      );
      assert.equal(view.payment, AMOUNTS[0].toString());
    }));

  test('a Worker absent on milestone 1: nothing delivered, cancelled-absent as a contract without milestones', () =>
    withHarness(async (h) => {
      const { contractId, handle } = await startedWithMilestones(h);
      await send(handle, acceptUpdate, { caller: WORKER });
      const run = await finish(contractId, handle);
      assert.equal(run.outcome?.created && run.outcome.status, 'cancelled-absent');
      const stake = STAKE_SHARES.reduce((s, a) => s + a, 0n);
      const toClient = (stake * BigInt(DEFAULT_PARAMS.absentSlashClientBps)) / 10_000n;
      await h.assertBalances({
        [CLIENT]: b(FUNDS + toClient),
        [WORKER]: b(WORKER_FUNDS - stake),
        treasury: b(stake - toClient),
      });
      await h.assertNothingPending(contractId);
    }));

  test('change requests within milestones: maxRevisions per milestone, then approved; paid in full', () =>
    withHarness(async (h) => {
      const { contractId, handle } = await startedWithMilestones(h, {}, { gap: 150 });
      await send(handle, acceptUpdate, { caller: WORKER });
      for (let r = 0; r < DEFAULT_PARAMS.maxRevisions; r++) {
        await send(handle, deliverUpdate, delivery(WORKER));
        await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0], note: `fix ${r}` });
      }
      await send(handle, deliverUpdate, delivery(WORKER));
      await assertRefused(
        send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] }),
        FailureType.Conflict,
        'revisions_exhausted',
      );
      const next = await send(handle, approveUpdate, { caller: CLIENT });
      assert.equal(next.currentMilestone, 1);
      assert.equal(next.revisionCount, 0, 'change requests count per milestone');
      await send(handle, deliverUpdate, delivery(WORKER));
      const revised = await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [1] });
      assert.equal(revised.status, 'matched');
      assert.equal(revised.revisionCount, 1);
      await deliverAndApprove(handle);
      await deliverAndApprove(handle);
      const run = await finish(contractId, handle);
      assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
      await h.assertBalances({ [CLIENT]: b(FUNDS - PRICE), [WORKER]: b(WORKER_FUNDS + PRICE) });
      await h.assertNothingPending(contractId);
    }));

  test('the saved paths: approved and revised milestones end paid in full', () =>
    withHarness(async (h) => {
      for (const path of Object.values(MILESTONE_PATHS)) {
        const run = await path(h);
        assert.equal(run.outcome?.created && run.outcome.status, 'settled-fully-met');
        await h.assertNothingPending(run.contractId);
      }
    }));
});
