// Runs every test layer with Node's test runner: `npm test` (all) or `npm test -- test/rules` (a subset).
// Two files at a time by default (OPENCONTRACT_TEST_CONCURRENCY): each starts its own servers on free ports and its
// own data files, and most of a file's time is spent waiting on timers and servers, so two share two cores well.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..');

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];
const files = roots
  .flatMap((r) => (statSync(join(root, r)).isDirectory() ? findTests(join(root, r)) : [join(root, r)]))
  .map((f) => relative(root, f))
  .sort();

if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`);
  process.exit(1);
}

const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${process.env.OPENCONTRACT_TEST_CONCURRENCY ?? 2}`,
    '--test-reporter=spec',
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
