// The SDK's core against out-of-order workflow tasks: a task that reaches a worker while that contract's last
// task still waits on a local activity there (a query sent just before an Update, delivered just after it) must
// wait its turn. The core as npm ships it (1.24.0) took it as a second task for the run ("Trying to send a new
// WFT for a run which already has one!") and lost the first: it timed out 10 s later, and the Update riding on
// it waited that long or failed — 23 of these 24 contracts failed at 8 slots. The core built with the fix in
// deploy/sdk-core/ (scripts/install-core-bridge.mjs) answers every Update promptly. Tasks reach the worker out
// of order when it has no free slot to poll with, so the worker here has fewer slots than contracts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { CONTRACT_WORKER_TUNING, STICKY_QUEUE_TIMEOUT } from '../../service/worker';
import { createDevServerEnv } from '../support/temporal';
import { postUpdate, postedQuery, postingWorkflow } from './local-activity-workflow';

/** More contracts at once than the worker has workflow-task slots, so tasks reach it out of order. */
const CONTRACTS = 24;
const SLOTS = 8;
const POSTS = 10;
/** A ledger posting on a busy host. */
const POSTING_MS = 100;
/** Far above a posting's wait for a local-activity slot on a busy host; below the lost task's 10 s. */
const ANSWERED_WITHIN_MS = 8_000;

let env: TestWorkflowEnvironment;
before(async () => {
  env = await createDevServerEnv();
});
after(async () => {
  await env?.teardown();
});

test('Updates waiting on local activities are answered promptly while every contract is queried without pause', async (t) => {
  const taskQueue = `slots-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./local-activity-workflow'),
    activities: { post: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) },
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_TIMEOUT,
    ...CONTRACT_WORKER_TUNING,
    maxConcurrentWorkflowTaskExecutions: SLOTS,
  });
  const contracts = await worker.runUntil(
    Promise.allSettled(
      Array.from({ length: CONTRACTS }, async (_, i) => {
        const handle = await env.client.workflow.start(postingWorkflow, {
          taskQueue,
          workflowId: `slots-${i}-${randomUUID()}`,
          args: [POSTING_MS, POSTS],
        });
        let posting = true;
        const reads = (async () => {
          while (posting) await handle.query(postedQuery);
        })();
        let longest = 0;
        try {
          for (let post = 1; post <= POSTS; post++) {
            const started = Date.now();
            assert.equal(await handle.executeUpdate(postUpdate, { args: [1] }), post);
            longest = Math.max(longest, Date.now() - started);
          }
        } finally {
          posting = false;
          await reads;
        }
        assert.equal(await handle.result(), POSTS);
        return longest;
      }),
    ),
  );
  const failed = contracts.filter((c) => c.status === 'rejected');
  assert.deepEqual(failed, [], `${failed.length} of ${CONTRACTS} contracts failed`);
  const longest = Math.max(...contracts.map((c) => (c.status === 'fulfilled' ? c.value : 0)));
  t.diagnostic(`the longest Update took ${longest} ms`);
  assert.ok(longest < ANSWERED_WITHIN_MS, `an Update waited ${longest} ms (a lost workflow task)`);
});
