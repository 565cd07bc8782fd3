// The embedded default's namespace retention is set on purpose (service/dev-server.ts setRetention),
// on a real dev server: Temporal reports the configured number of days afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setRetention } from '../../service/dev-server';
import { createDevServerEnv } from '../support/temporal';

test('the namespace keeps closed workflows for the configured retention', async () => {
  const env = await createDevServerEnv();
  try {
    const namespace = env.namespace ?? 'default';
    await setRetention(env.address, namespace, 45);
    const described = await env.connection.workflowService.describeNamespace({ namespace });
    assert.equal(Number(described.config?.workflowExecutionRetentionTtl?.seconds), 45 * 86_400);
  } finally {
    await env.teardown();
  }
});
