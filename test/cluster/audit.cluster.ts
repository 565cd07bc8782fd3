// The independent auditor after the end-to-end suites (`npm run test:cluster`): imported last by
// e2e.cluster.ts, so it runs on the instance those suites just used, every contract they ended in its
// outcome log. It runs `npm run audit` (scripts/audit.ts, a child process, as an operator would) against
// each of the instance's APIs and expects 0 differences: the chain, each contract's records against its
// public events, every panel draw redrawn from its seed, and every agent's raw figures and trust score
// as that API's read model answers them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { ClusterHarness } from '../support/cluster';
import { useServiceHarness } from '../support/service';

// The instance the e2e suites run on (the same options: one start for all of them).
const harness = useServiceHarness();
const root = join(__dirname, '..', '..');

/** The auditor's output; a non-zero exit (a difference, or the service unreadable) fails with it. */
async function npmRunAudit(url: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/audit.ts', url],
      {
        cwd: root,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return stdout;
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    assert.fail(`npm run audit -- ${url} exited ${code}:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

test('npm run audit against the instance the end-to-end suites ran on: 0 differences', async () => {
  const h = harness();
  const urls = 'cluster' in h ? (h as ClusterHarness).cluster.apiUrls : [h.url()];
  const head = (await (await fetch(new URL('/outcomes/head', urls[0]))).json()) as { sequence: number };
  // The suites ended contracts (approved, a panel's dispute, an auction's panel): their records are in the log.
  assert.ok(head.sequence >= 10, `the outcome log holds ${head.sequence} records`);
  for (const url of urls) {
    const out = await npmRunAudit(url);
    assert.match(
      out,
      /^audited (\d+) outcome records, (\d+) contracts, (\d+) draws, (\d+) agents: 0 differences$/m,
    );
    assert.doesNotMatch(out, /^DIFFERENCE /m);
  }
});
