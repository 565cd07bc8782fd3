// The black-box FDP load on the embedded default: the test suite's load scenario (test/cluster/load.ts: FDP to
// settled-fully-met, 1 in 3 cancelled before the accept) through the HTTP API of one service on the dev server,
// BENCH_LOAD_CALLERS agent pairs at a time, after a warm-up of as many contracts; prints contracts/s and each
// call's p95 as one JSON line.
//
// Side by side with another tree (an older commit checked out elsewhere, its node_modules installed):
//   BENCH_LOAD_BASELINE=/path/to/old/tree npx tsx bench/load/fdp.ts
// runs this file in both trees by turns (BENCH_LOAD_ROUNDS each, so both meet the same machine), then prints each
// round's figures and the ratio of the means, this tree over the baseline.
// Run: npx tsx bench/load/fdp.ts   (BENCH_LOAD_CONTRACTS default 300, BENCH_LOAD_CALLERS default 32)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { p95, runLoad } from '../../test/cluster/load';
import { startDevServiceHarness } from '../../test/support/service';

const CONTRACTS = Number(process.env.BENCH_LOAD_CONTRACTS ?? 300);
const CALLERS = Number(process.env.BENCH_LOAD_CALLERS ?? 32);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 2);
const BASELINE = process.env.BENCH_LOAD_BASELINE;

interface Figures {
  tree: string;
  contractsPerSecond: number;
  p95Ms: Record<string, number>;
}

async function measure(): Promise<Figures> {
  const dev = await startDevServiceHarness();
  try {
    const load = (contracts: number) =>
      runLoad({ urls: [dev.url()], operatorToken: dev.settings.operatorToken, contracts, callers: CALLERS });
    await load(CALLERS);
    const result = await load(CONTRACTS);
    const ended = result.outcomes.filter((o) => o.status === o.expected).length;
    if (ended !== CONTRACTS) throw new Error(`${CONTRACTS - ended} contracts did not end as expected`);
    const p95Ms = Object.fromEntries([...result.calls].map(([name, ms]) => [name, Math.round(p95(ms))]));
    return { tree: process.cwd(), contractsPerSecond: CONTRACTS / result.seconds, p95Ms };
  } finally {
    await dev.close();
  }
}

function measureIn(tree: string): Figures {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/load/fdp.ts'], {
    cwd: tree,
    env: { ...process.env, BENCH_LOAD_BASELINE: '' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const line = run.stdout.split('\n').find((l) => l.startsWith('{"tree"'));
  if (run.status !== 0 || !line) throw new Error(`the load in ${tree} failed:\n${run.stderr.slice(-4000)}`);
  return JSON.parse(line) as Figures;
}

async function compare(baseline: string): Promise<void> {
  mkdirSync(join(baseline, 'bench/load'), { recursive: true });
  copyFileSync(__filename, join(baseline, 'bench/load/fdp.ts'));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const here: number[] = [];
  const there: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [tree, into] of [
      [baseline, there],
      [process.cwd(), here],
    ] as const) {
      const figures = measureIn(tree);
      into.push(figures.contractsPerSecond);
      console.log(
        `round ${round} ${tree}: ${figures.contractsPerSecond.toFixed(2)} contracts/s, p95`,
        figures.p95Ms,
      );
    }
  }
  console.log(
    `this tree ${mean(here).toFixed(2)} contracts/s, baseline ${mean(there).toFixed(2)}: ratio ${(mean(here) / mean(there)).toFixed(2)}`,
  );
}

if (BASELINE) void compare(BASELINE);
else void measure().then((figures) => console.log(JSON.stringify(figures)));
