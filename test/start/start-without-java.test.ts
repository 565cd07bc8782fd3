// `npm start` in a clean clone of HEAD on a PATH without java or mvn comes up healthy: start installs
// only the Temporal CLI the embedded default runs (the prebuilt one, via TEMPORAL_CLI_PATH, so the test
// does not rebuild it), never the Java test server. node_modules is linked, ports are free, data is temp.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { serverPaths } from '../../temporal.config';
import { freePort } from '../support/postgres';
import { startServiceTree } from '../support/service-tree';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WITHOUT = new Set(['java', 'javac', 'mvn']);

/** A directory of links to every program on PATH except java and Maven (the first of a name wins). */
function pathWithoutJava(dir: string): string {
  mkdirSync(dir);
  const seen = new Set<string>();
  for (const entry of (process.env.PATH ?? '').split(delimiter)) {
    if (!existsSync(entry)) continue;
    for (const name of readdirSync(entry)) {
      if (WITHOUT.has(name) || seen.has(name)) continue;
      seen.add(name);
      symlinkSync(join(entry, name), join(dir, name));
    }
  }
  return dir;
}

test(
  'npm start in a clean clone, without java on PATH: /health answers 200',
  { timeout: 180_000 },
  async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'oc-start-'));
    const clone = join(tmp, 'repo');
    try {
      const cloned = spawnSync('git', ['clone', '-q', '--no-hardlinks', root, clone], { encoding: 'utf8' });
      assert.equal(cloned.status, 0, cloned.stderr);
      symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'));
      const bin = pathWithoutJava(join(tmp, 'bin'));
      assert.notEqual(spawnSync('java', ['-version'], { env: { PATH: bin } }).status, 0);
      const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
      const tree = startServiceTree({
        cwd: clone,
        env: {
          HOME: process.env.HOME ?? tmp,
          PATH: bin,
          PORT: String(port),
          OPENCONTRACT_DATA_DIR: join(tmp, 'data'),
          OPENCONTRACT_TEMPORAL_PORT: String(temporalPort),
          OPENCONTRACT_TEMPORAL_UI_PORT: String(uiPort),
          TEMPORAL_CLI_PATH: serverPaths.cli,
        },
      });
      try {
        await tree.healthy(`http://127.0.0.1:${port}`);
        assert.match(tree.output(), /Temporal CLI ready/);
        assert.doesNotMatch(tree.output(), /test server/);
      } finally {
        await tree.signalAll('SIGTERM');
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
    }
  },
);
