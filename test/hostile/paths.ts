// Contract paths of the hostile tests that also have a saved history (test/histories/record.ts).
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { acceptUpdate, appealUpdate, deliverUpdate, voteUpdate } from '../../workflows/definitions';
import { needsOperatorQuery, resolveStuckUpdate, type StuckStep } from '../../workflows/operator-messages';
import { delivery, type Harness } from '../workflows/harness';
import { BA1, BA2, BA3, CLIENT, WORKER } from '../support/fixtures';
import { finish, send, started, type Path } from '../workflows/scenarios';

/** Polls until the contract waits for the operator. */
export async function waitingForOperator(handle: WorkflowHandle): Promise<StuckStep> {
  for (let i = 0; i < 200; i++) {
    const stuck = await handle.query(needsOperatorQuery);
    if (stuck !== null) return stuck;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the contract never waited for the operator');
}

export const HOSTILE_PATHS = {
  /**
   * FDS with a panel: the Worker Stake is resolved out of band in the ledger before the last vote, so
   * the tally's settlement batch is refused; the contract waits for the operator, who releases every
   * hold (cancelled-by-operator).
   */
  async 'needs-operator-release'(h: Harness) {
    await h.makeEligible();
    const { input, handle } = await started(h, { verificationMode: 'standard' });
    await send(handle, acceptUpdate, { caller: WORKER });
    await send(handle, deliverUpdate, delivery(WORKER));
    await send(handle, voteUpdate, { caller: BA1, votes: ['met', 'met'] });
    await send(handle, voteUpdate, { caller: BA2, votes: ['met', 'met'] });
    await h.ledger.voidHold({ id: 'corruption', holdId: `${input.contractId}:stake:${WORKER}` });
    await send(handle, voteUpdate, { caller: BA3, votes: ['met', 'met'] });
    // Both parties waive their appeal, so the tally settles at once.
    await send(handle, appealUpdate, { caller: CLIENT, waive: true });
    await send(handle, appealUpdate, { caller: WORKER, waive: true });
    assert.equal((await waitingForOperator(handle)).step, 'settlement');
    await handle.executeUpdate(resolveStuckUpdate, { args: [{ action: 'release' }] });
    return finish(input.contractId, handle);
  },
} satisfies Record<string, Path>;
