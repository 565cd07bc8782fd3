// The prebuilt workflow bundle (service/workflow-bundle.ts): built once into its directory under the
// sources' hash, loaded from there afterwards, and good for a replay of a saved history.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { createPayloadCodec } from '../../service/codec';
import { prebuiltWorkflowBundle, STALE_BUNDLE_MS, workflowSourceHash } from '../../service/workflow-bundle';
import { historyFromFile } from '../histories/format';
import { HISTORY_CODEC_KEY } from '../workflows/harness';

const dir = mkdtempSync(join(tmpdir(), 'oc-bundle-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `dir` last touched `ageMs` ago. */
function fileAged(name: string, ageMs: number): void {
  const path = join(dir, name);
  writeFileSync(path, '// another version');
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
}

test('the bundle is written once under the sources’ hash and loaded from the file afterwards; other versions unused for a day are deleted', async () => {
  fileAged('workflows-00000000000000aa.js', STALE_BUNDLE_MS + 60_000);
  fileAged('workflows-00000000000000bb.js.123.tmp', STALE_BUNDLE_MS + 60_000);
  fileAged('workflows-00000000000000cc.js', 60_000);
  fileAged('notes.txt', STALE_BUNDLE_MS + 60_000);
  const first = await prebuiltWorkflowBundle(dir);
  assert.ok(first && 'codePath' in first);
  assert.equal(first.codePath, join(dir, `workflows-${workflowSourceHash()}.js`));
  assert.deepEqual(
    readdirSync(dir).sort(),
    ['notes.txt', 'workflows-00000000000000cc.js', `workflows-${workflowSourceHash()}.js`].sort(),
  );
  const written = statSync(first.codePath);
  const second = await prebuiltWorkflowBundle(dir);
  assert.deepEqual(second, first);
  // Not written again (the same file), only touched as in use.
  assert.equal(statSync(first.codePath).ino, written.ino);
  assert.ok(statSync(first.codePath).mtimeMs >= written.mtimeMs);

  const file = join(__dirname, '..', 'histories', 'settled-approved.json');
  // Throws when the bundled code does not replay the history.
  await Worker.runReplayHistory(
    { workflowBundle: first, dataConverter: { payloadCodecs: [createPayloadCodec(HISTORY_CODEC_KEY)] } },
    historyFromFile(readFileSync(file, 'utf8')),
    'settled-approved',
  );
});
