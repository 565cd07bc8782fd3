// Reads never wake a workflow: the lint rule (eslint.config.mjs NO_WORKFLOW_QUERIES) refuses a workflow
// query in the API, the service, the stores and the agent feed, and the tree as it is passes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const QUERIES = [
  "import { contractQuery } from '../workflows/definitions';\nexport const q = contractQuery;\n",
  "import type { Client } from '@temporalio/client';\nexport const read = (c: Client) => c.workflow.getHandle('contract-1').query('contract');\n",
  "import type { WorkflowHandle } from '@temporalio/client';\nexport const read = (handle: WorkflowHandle) => handle.query('snapshot');\n",
];

test('a workflow query in api/, service/, store/ or the agent feed fails the lint', async () => {
  for (const file of [
    'api/routes/contracts.ts',
    'service/start.ts',
    'store/index.ts',
    'store/agent-feed/projector.ts',
  ]) {
    for (const code of QUERIES) {
      const messages = await restricted(file, code);
      assert.ok(messages.length > 0, `${file} may not hold:\n${code}`);
      assert.match(messages[0]!, /read model/);
    }
  }
});

test('the read paths as they are hold no workflow query', async () => {
  const results = await eslint.lintFiles(['api', 'service', 'store', 'webhooks', 'mcp']);
  const found = results.flatMap((r) =>
    r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`),
  );
  assert.deepEqual(found, []);
});
