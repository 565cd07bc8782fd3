// The folders stand in layers (eslint.config.mjs): the API and the worker's activities sit side by side
// over store/ and webhooks/, so an import of activities/ from api/ or webhooks/, or of api/ from below,
// fails the lint (`npm run lint` holds the tree to it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('api/ and webhooks/ import nothing from activities/', async () => {
  for (const [file, from] of [
    ['api/routes/eligibility.ts', '../../activities/ledger-activities'],
    ['api/app.ts', '../activities'],
    ['webhooks/post.ts', '../activities/webhook-activities'],
  ] as const) {
    const messages = await restricted(file, `import { x } from '${from}';\nexport const y = x;\n`);
    assert.equal(messages.length, 1, `${file} may not import ${from}`);
    assert.match(messages[0]!, /Temporal adapters/);
  }
});

test('store/, activities/ and webhooks/ import nothing from api/', async () => {
  for (const file of ['store/ledger/seats.ts', 'activities/panel-activities.ts', 'webhooks/target.ts']) {
    const messages = await restricted(file, `import { x } from '../api/deps';\nexport const y = x;\n`);
    assert.ok(messages.length > 0, `${file} may not import api/`);
  }
});
