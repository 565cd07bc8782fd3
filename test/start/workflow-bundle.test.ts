// The prebuilt workflow bundle (service/workflow-bundle.ts): built once into its directory under the
// sources' hash, loaded from there afterwards, and good for a replay of a saved history.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { createPayloadCodec } from '../../service/codec';
import { prebuiltWorkflowBundle, workflowSourceHash } from '../../service/workflow-bundle';
import { historyFromFile } from '../histories/format';
import { HISTORY_CODEC_KEY } from '../workflows/harness';

const dir = mkdtempSync(join(tmpdir(), 'oc-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the bundle is written once under the sources’ hash and loaded from the file afterwards', async () => {
  const first = await prebuiltWorkflowBundle(dir);
  assert.ok(first && 'codePath' in first);
  assert.equal(first.codePath, join(dir, `workflows-${workflowSourceHash()}.js`));
  assert.deepEqual(readdirSync(dir), [`workflows-${workflowSourceHash()}.js`]);
  const written = statSync(first.codePath).mtimeMs;
  const second = await prebuiltWorkflowBundle(dir);
  assert.deepEqual(second, first);
  assert.equal(statSync(first.codePath).mtimeMs, written);

  const file = join(__dirname, '..', 'histories', 'settled-approved.json');
  // Throws when the bundled code does not replay the history.
  await Worker.runReplayHistory(
    { workflowBundle: first, dataConverter: { payloadCodecs: [createPayloadCodec(HISTORY_CODEC_KEY)] } },
    historyFromFile(readFileSync(file, 'utf8')),
    'settled-approved',
  );
});
