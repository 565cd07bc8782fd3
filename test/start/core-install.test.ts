// The SDK core: `npm start`, `npm test`, the cluster scripts and CI run the core npm ships, and
// `npm run core:install` (scripts/install-core-bridge.mjs) is a backport that retires itself: a patch whose
// manifest names a core-bridge version that contains its fix is skipped from that version on.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../auth/support';

interface Backport {
  name: string;
  fixes: string;
  upstream: string;
  fixedIn: string | null;
}
interface CoreInstall {
  atLeast(version: string, since: string): boolean;
  backports(dir?: string): Backport[];
  neededPatches(version: string, all?: Backport[]): Backport[];
}

const root = join(__dirname, '..', '..');
const patchDir = join(root, 'deploy', 'sdk-core');
// By URL: the script is plain JavaScript without type declarations.
const load = () =>
  import(pathToFileURL(join(root, 'scripts', 'install-core-bridge.mjs')).href) as Promise<CoreInstall>;

test('start, test, the cluster scripts and CI never build the core; core:install is the only step that does', () => {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  for (const name of ['start', 'test', 'cluster', 'test:cluster']) {
    assert.doesNotMatch(scripts[name]!, /install-core-bridge|core:install/, `npm run ${name}`);
  }
  assert.match(scripts['core:install']!, /install-core-bridge\.mjs/);
  const ci = readFileSync(join(root, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#'));
  assert.ok(!ci.some((line) => /install-core-bridge|core:install/.test(line)), '.ci/run builds no core');
});

test('every patch has a manifest: what it fixes, its upstream status, the first version with the fix', async () => {
  const { backports } = await load();
  const patches = readdirSync(patchDir).filter((f) => f.endsWith('.patch'));
  const described = backports();
  assert.deepEqual(described.map((p) => p.name).sort(), patches.sort());
  for (const p of described) {
    assert.ok(p.fixes.length > 20 && p.upstream.length > 5, p.name);
    assert.ok(p.fixedIn === null || /^\d+\.\d+\.\d+/.test(p.fixedIn), p.name);
  }
});

test('a patch is skipped from the version that contains its fix; none is left once all are', async () => {
  const { atLeast, backports, neededPatches } = await load();
  const dir = tempDir('core-install');
  for (const f of readdirSync(patchDir)) copyFileSync(join(patchDir, f), join(dir, f));
  const [first, second] = backports(dir).map((p) => p.name);
  const setFixedIn = (patch: string, fixedIn: string | null) => {
    const file = join(dir, patch.replace(/\.patch$/, '.json'));
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), fixedIn }));
  };
  setFixedIn(first!, '1.25.0');
  setFixedIn(second!, null);
  const needed = (version: string) => neededPatches(version, backports(dir)).map((p) => p.name);
  assert.deepEqual(needed('1.24.0'), [first, second]);
  assert.deepEqual(needed('1.25.0-rc.1'), [first, second], 'a pre-release comes before its release');
  assert.deepEqual(needed('1.25.0'), [second]);
  assert.deepEqual(needed('1.30.2'), [second]);
  setFixedIn(second!, '1.26.0');
  assert.deepEqual(needed('1.26.0'), [], 'nothing to build once every fix is contained');
  assert.ok(atLeast('1.24.10', '1.24.9'), 'versions compare by number, not text');

  const missing = tempDir('core-install');
  copyFileSync(join(dir, first!), join(missing, first!));
  assert.throws(() => backports(missing), /\.json is missing/);
});
