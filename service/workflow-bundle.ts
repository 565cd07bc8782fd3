// The worker's workflow code, bundled once (docs/performance.md, "Worker settings"): `npm run build`
// or the first start writes `.build/workflows-<hash>.js`, named by a hash of the workflow sources and
// the lockfile; every later start loads that file instead of running webpack (seconds on a small
// machine). A changed source or dependency changes the hash, so a stale bundle is never loaded.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The prebuilt bundle for the current sources, built and written first when missing. Where the
 * directory cannot be written, the freshly built bundle is used from memory.
 */
export async function prebuiltWorkflowBundle(dir = BUNDLE_DIR): Promise<WorkerOptions['workflowBundle']> {
  const codePath = join(dir, `workflows-${workflowSourceHash()}.js`);
  if (existsSync(codePath)) return { codePath };
  const { code } = await bundleWorkflowCode({ workflowsPath: CONTRACT_WORKFLOWS_PATH, logger: quiet });
  try {
    mkdirSync(dir, { recursive: true });
    const partial = `${codePath}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, codePath);
    return { codePath };
  } catch {
    return { code };
  }
}
