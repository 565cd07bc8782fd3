// The worker's workflow code, bundled once (docs/performance.md, "Worker settings"): `npm run build`
// or the first start writes `.build/workflows-<hash>.js`, named by a hash of the workflow sources and
// the lockfile; every later start loads that file instead of running webpack (seconds on a small
// machine). A changed source or dependency changes the hash, so a stale bundle is never loaded; one
// no start has used for a day is deleted when a new one is written.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { CONTRACT_WORKFLOWS_PATH } from './worker';

const ROOT = join(__dirname, '..');
export const BUNDLE_DIR = join(ROOT, '.build');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .filter((f) => f.endsWith('.ts'))
    .sort();
}

/** What the bundle is made of: every workflow source and the locked dependency versions. */
export function workflowSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(dirname(CONTRACT_WORKFLOWS_PATH)), join(ROOT, 'package-lock.json')]) {
    hash.update(file.slice(ROOT.length)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** A bundle no start has loaded for this long is another version's: deleted when a new one is written. */
export const STALE_BUNDLE_MS = 24 * 60 * 60_000;

/** Deletes the bundles (and a crashed write's leftovers) of `dir` untouched for STALE_BUNDLE_MS, but `keep`. */
export function pruneStaleBundles(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === keep || !/^workflows-[0-9a-f]+\.js(\.\d+\.tmp)?$/.test(name)) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_BUNDLE_MS) rmSync(path, { force: true });
    } catch {
      // Another start deleted it first.
    }
  }
}

/** Touches the bundle so no other start prunes it (a directory that cannot be written keeps it anyway). */
function markInUse(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // Read-only: nothing writes a new bundle there, so nothing prunes this one.
  }
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The prebuilt bundle for the current sources, built and written first when missing. Where the
 * directory cannot be written, the freshly built bundle is used from memory.
 */
export async function prebuiltWorkflowBundle(dir = BUNDLE_DIR): Promise<WorkerOptions['workflowBundle']> {
  const codePath = join(dir, `workflows-${workflowSourceHash()}.js`);
  if (existsSync(codePath)) {
    markInUse(codePath);
    return { codePath };
  }
  const { code } = await bundleWorkflowCode({ workflowsPath: CONTRACT_WORKFLOWS_PATH, logger: quiet });
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${codePath}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, codePath);
    pruneStaleBundles(dir, codePath);
    return { codePath };
  } catch {
    return { code };
  }
}
