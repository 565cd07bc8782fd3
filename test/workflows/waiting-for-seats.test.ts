// Waiting for seats (docs/protocol.md §8) on the time-skipping server with the real ledger on SQLite: a
// contract that cannot seat a full panel waits on the ledger's waitlist and is seated, in the order
// contracts started waiting, as soon as another panel's seats are released — not on its retry timer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { acceptUpdate, appealUpdate, deliverUpdate, voteUpdate } from '../../workflows/definitions';
import { DEFAULT_PARAMS, type ProtocolParams } from '../../workflows/rules/params';
import { FIRST_RETRY_MS } from '../../workflows/rules/recruitment';
import { delivery, useWorkflowSuite, type Harness } from './harness';
import { BAS, CLIENT, ELIGIBILITY_STAKE, SECOND, WORKER } from '../support/fixtures';
import { send, started } from './scenarios';

const withHarness = useWorkflowSuite();

/** A seat holds a whole eligibility stake: three agents seat exactly one panel at a time. */
const PARAMS: ProtocolParams = { ...DEFAULT_PARAMS, baBond: ELIGIBILITY_STAKE };

async function deliveredStandard(h: Harness) {
  const run = await started(
    h,
    { awardMethod: 'open', worker: undefined, verificationMode: 'standard' },
    PARAMS,
  );
  await send(run.handle, acceptUpdate, { caller: WORKER });
  const view = await send(run.handle, deliverUpdate, delivery(WORKER));
  return { ...run, view };
}

/** Every seated BA votes `met` and both parties waive the appeal: the contract settles, its seats released. */
async function decideAndRelease(handle: WorkflowHandle, members: readonly string[]): Promise<void> {
  for (const ba of members) await send(handle, voteUpdate, { caller: ba, votes: ['met', 'met'] });
  await send(handle, appealUpdate, { caller: WORKER, waive: true });
  await send(handle, appealUpdate, { caller: CLIENT, waive: true });
  assert.equal(((await handle.result()) as { status: string }).status, 'settled-fully-met');
}

/** Polls the view (no time skipped) until `done`, for at most `realMs` of real time. */
async function eventually(
  h: Harness,
  handle: WorkflowHandle,
  done: (v: Awaited<ReturnType<Harness['view']>>) => boolean,
  realMs = 10_000,
) {
  const until = Date.now() + realMs;
  for (;;) {
    const view = await h.view(handle);
    if (done(view) || Date.now() > until) return view;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('waiting for seats (time-skipping server, real ledger on SQLite)', () => {
  test('contracts waiting for seats are seated in waiting order, each within seconds of seats freeing', () =>
    withHarness(async (h) => {
      await h.makeEligible(BAS);
      const a = await deliveredStandard(h);
      assert.deepEqual([...a.view.backupAgents].sort(), [...BAS].sort());
      const b = await deliveredStandard(h);
      const c = await deliveredStandard(h);
      for (const w of [b, c]) assert.equal(w.view.panelPending, true);
      assert.deepEqual(
        (await h.ledger.panels.waitlist()).map((e) => e.contractId),
        [b.input.contractId, c.input.contractId],
      );

      // A's seats are released at its settlement: B (waiting first) is seated at once, C keeps waiting.
      await decideAndRelease(a.handle, a.view.backupAgents);
      const releasedAt = await h.now();
      const bSeated = await eventually(h, b.handle, (v) => v.voting !== null);
      assert.ok(bSeated.voting !== null, 'B seated after A released its seats');
      assert.ok(
        Date.parse(bSeated.voting.drawnAt) - releasedAt < 5 * SECOND,
        'seated within seconds of the seats freeing, not on its retry timer',
      );
      assert.ok(Date.parse(bSeated.voting.drawnAt) - releasedAt < FIRST_RETRY_MS);
      assert.equal((await h.view(c.handle)).panelPending, true, 'C waits its turn');
      assert.deepEqual(
        (await h.ledger.panels.waitlist()).map((e) => e.contractId),
        [c.input.contractId],
      );

      await decideAndRelease(b.handle, bSeated.backupAgents);
      const releasedAgain = await h.now();
      const cSeated = await eventually(h, c.handle, (v) => v.voting !== null);
      assert.ok(cSeated.voting !== null, 'C seated after B released its seats');
      assert.ok(Date.parse(cSeated.voting.drawnAt) - releasedAgain < 5 * SECOND);
      assert.deepEqual(await h.ledger.panels.waitlist(), []);
      await decideAndRelease(c.handle, cSeated.backupAgents);
      await h.ledger.audit();
    }));
});
