// Replays every saved history (test/histories/*.json) against the current workflow code: any
// nondeterministic change to workflows/ fails here. Re-record with `npx tsx test/histories/record.ts`.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { workerDataConverter } from '../../service/temporal-client';
import { CONTRACT_WORKFLOWS_PATH } from '../../service/worker';
import { historyFromFile } from '../histories/format';
import { HISTORY_CODEC_KEY } from '../workflows/harness';

const dir = join(__dirname, '..', 'histories');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

let workflowBundle: WorkflowBundleWithSourceMap;
before(async () => {
  workflowBundle = await bundleWorkflowCode({ workflowsPath: CONTRACT_WORKFLOWS_PATH });
});

test('every contract path has a saved history', () => {
  assert.ok(files.length >= 10, `only ${files.length} saved histories in ${dir}`);
});

test('every saved history replays deterministically', async () => {
  const histories = files.map((file) => ({
    workflowId: file.replace(/\.json$/, ''),
    history: historyFromFile(readFileSync(join(dir, file), 'utf8')),
  }));
  const replayed: string[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle, dataConverter: workerDataConverter(HISTORY_CODEC_KEY) },
    histories,
  )) {
    assert.equal(result.error, undefined, `${result.workflowId}: ${String(result.error)}`);
    replayed.push(result.workflowId);
  }
  assert.deepEqual(
    replayed,
    histories.map((h) => h.workflowId),
  );
});
