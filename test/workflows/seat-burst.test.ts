// Seats without a hot row, at the workflow level: 64 disputes at once over a 5-agent registry seat
// every panel with no activity failure (each seating reads and takes its members' free stake in one
// transaction, Ledger.seat), and every ledger invariant holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Activities } from '../../activities';
import { agentOwner } from '../../store/ledger';
import { acceptUpdate, deliverUpdate, disputeUpdate } from '../../workflows/definitions';
import { delivery, useWorkflowSuite } from './harness';
import { CLIENT, ELIGIBILITY_STAKE, WORKER } from '../support/fixtures';
import { send, started } from './scenarios';

const withHarness = useWorkflowSuite();
const DISPUTES = 64;
const REGISTRY = ['11', '22', '33', '44', '55'].map((b) => '0x' + b.repeat(20));

/** Counts every activity call that threw (the workflow would retry it, or fail the step). */
function countingFailures(failures: string[]) {
  return (activities: Activities): Activities =>
    Object.fromEntries(
      Object.entries(activities).map(([name, fn]) => [
        name,
        async (...args: unknown[]) => {
          try {
            return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
          } catch (error) {
            failures.push(`${name}: ${String(error)}`);
            throw error;
          }
        },
      ]),
    ) as Activities;
}

test(`${DISPUTES} disputes at once over a 5-agent registry: every panel seated, no activity failed`, () => {
  const failures: string[] = [];
  return withHarness(async (h) => {
    // Stake for every seat with room to spare (64 × 3 seats of 10 USDC over 5 agents: about 39 each, 60
    // held), so no panel waits because the draw left fewer than three agents with free stake: what is
    // measured is contention on one agent's stake, not the registry running out.
    await h.makeEligible(REGISTRY, 6n * ELIGIBILITY_STAKE);
    await h.ledger.deposit({ id: 'burst:client', asset: 'USDC', to: agentOwner(CLIENT), amount: 10n ** 9n });
    await h.ledger.deposit({ id: 'burst:worker', asset: 'USDC', to: agentOwner(WORKER), amount: 10n ** 8n });
    const handles = [];
    for (let i = 0; i < DISPUTES; i++) {
      const { handle } = await started(h, {
        awardMethod: 'open',
        worker: undefined,
        verificationMode: 'privacy-preserving',
      });
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      handles.push(handle);
    }
    const t0 = Date.now();
    const views = await Promise.all(handles.map((handle) => send(handle, disputeUpdate, { caller: CLIENT })));
    const ms = Date.now() - t0;
    console.log(`${DISPUTES} disputes answered in ${ms} ms`);
    for (const view of views) {
      assert.equal(view.status, 'disputed');
      assert.equal(view.backupAgents.length, 3, 'seated at once, not waiting');
    }
    const seats = (await h.ledger.eligibleAgents(1n)).reduce((sum, a) => sum + a.seated, 0n);
    assert.equal(seats, BigInt(DISPUTES) * 3n * 10_000_000n);
    assert.deepEqual(failures, []);
    await h.ledger.audit();
    for (const handle of handles) await handle.terminate('burst measured');
  }, countingFailures(failures));
});
