// Proves both installed servers run every Temporal primitive the product needs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { createDevServerEnv, createTimeSkippingEnv } from '../support/temporal';
import { canaryWorkflow, pokeSignal, setLabelUpdate, stateQuery } from './canary-workflow';

const workflowsPath = require.resolve('./canary-workflow');

async function withWorker<T>(
  env: TestWorkflowEnvironment,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `canary-${randomUUID()}`;
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath });
  return worker.runUntil(fn(taskQueue));
}

/** A signal, an Update whose validator refuses bad input and accepts good input, and a query. */
async function exerciseMessages(handle: WorkflowHandle<typeof canaryWorkflow>, label: string): Promise<void> {
  await handle.signal(pokeSignal, 'alice');
  await assert.rejects(handle.executeUpdate(setLabelUpdate, { args: ['Not Valid!'] }), (err) => {
    assert.ok(err instanceof WorkflowUpdateFailedError);
    assert.match(String(err.cause?.message), /invalid label/);
    return true;
  });
  assert.equal(await handle.executeUpdate(setLabelUpdate, { args: [label] }), label);
  assert.deepEqual(await handle.query(stateQuery), { pokes: ['alice'], label, timerFired: false });
}

describe('canary on the time-skipping test server', () => {
  let env: TestWorkflowEnvironment;
  before(async () => {
    env = await createTimeSkippingEnv();
  });
  after(async () => {
    await env?.teardown();
  });

  test('signal, update validator, query, and a 30-day timer skipped in wall-clock seconds', async () => {
    await withWorker(env, async (taskQueue) => {
      const startedAt = Date.now();
      const serverStart = await env.currentTimeMs();
      const handle = await env.client.workflow.start(canaryWorkflow, {
        taskQueue,
        workflowId: `canary-${randomUUID()}`,
      });
      await exerciseMessages(handle, 'matched');

      assert.equal(await handle.result(), 'matched:alice:timer');
      const skippedMs = (await env.currentTimeMs()) - serverStart;
      assert.ok(skippedMs >= 30 * 24 * 3600 * 1000, `server time advanced only ${skippedMs} ms`);
      console.log(`# 30-day timer passed in ${Date.now() - startedAt} ms of wall time`);
    });
  });
});

describe('canary on the dev server', () => {
  let env: TestWorkflowEnvironment;
  before(async () => {
    env = await createDevServerEnv();
  });
  after(async () => {
    await env?.teardown();
  });

  test('signal, update validator, query, and a typed search attribute found by a visibility query', async () => {
    await withWorker(env, async (taskQueue) => {
      const workflowId = `canary-${randomUUID()}`;
      const handle = await env.client.workflow.start(canaryWorkflow, { taskQueue, workflowId });
      const label = `label-${randomUUID().slice(0, 8).replace(/[0-9]/g, 'x')}`;
      await exerciseMessages(handle, label);

      const found: string[] = [];
      for (let i = 0; i < 100 && found.length === 0; i++) {
        for await (const wf of env.client.workflow.list({ query: `ContractStatus = "${label}"` })) {
          found.push(wf.workflowId);
        }
        if (found.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(found, [workflowId]);

      await handle.signal(pokeSignal, 'done');
      assert.equal(await handle.result(), `${label}:alice,done:signal`);
    });
  });
});
