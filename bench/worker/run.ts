// The worker's settings and what chose them (docs/performance.md, "Worker settings").
// 1. Start: Worker.create with the workflow sources (webpack bundles them at start) against the same
//    worker with the prebuilt bundle (service/workflow-bundle.ts), in alternating rounds.
// 2. Cache: heap per cached contract workflow, from N open contracts each waiting on its deadline
//    (a real worker, ledger and codec on the time-skipping server); the cache size follows from it.
// 3. Replay: what a cache miss costs, replaying the saved histories.
// Run: node --expose-gc --import tsx bench/worker/run.ts   (BENCH_ROUNDS, default 3; BENCH_OPEN, default 200)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { agentOwner, openLedger } from '../../store/ledger';
import { openRecords } from '../../store/records';
import { openOutcomeLog } from '../../store/outcomes';
import { createPayloadCodec } from '../../service/codec';
import { CONTRACT_WORKFLOWS_PATH } from '../../service/worker';
import { prebuiltWorkflowBundle } from '../../service/workflow-bundle';
import { createTimeSkippingEnv } from '../../test/support/temporal';
import { historyFromFile } from '../../test/histories/format';
import { CLIENT } from '../../test/support/fixtures';
import { createSuite, Harness, HISTORY_CODEC_KEY } from '../../test/workflows/harness';
import { median } from '../stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPEN = Number(process.env.BENCH_OPEN ?? 200);

async function startTimes(): Promise<void> {
  const env = await createTimeSkippingEnv();
  const dir = mkdtempSync(join(tmpdir(), 'bench-worker-'));
  const config = { kind: 'sqlite', path: join(dir, 'ledger.db') } as const;
  const ledger = await openLedger(config);
  const records = await openRecords(config);
  const outcomes = await openOutcomeLog(config);
  const bundle = await prebuiltWorkflowBundle();
  const timeCreate = async (code: Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'>) => {
    const started = performance.now();
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: `bench-${Math.random()}`,
      activities: createActivities({ ledger, records, outcomes }),
      ...code,
    });
    const elapsed = performance.now() - started;
    await worker.runUntil(Promise.resolve());
    return elapsed;
  };
  const sources: number[] = [];
  const prebuilt: number[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      sources.push(await timeCreate({ workflowsPath: CONTRACT_WORKFLOWS_PATH }));
      prebuilt.push(await timeCreate({ workflowBundle: bundle }));
    }
  } finally {
    await ledger.close();
    await records.close();
    await outcomes.close();
    await env.teardown();
    rmSync(dir, { recursive: true, force: true });
  }
  const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(
    `worker start, bundling the sources: median ${median(sources).toFixed(0)} ms (${fmt(sources)})`,
  );
  console.log(
    `worker start, prebuilt bundle:      median ${median(prebuilt).toFixed(0)} ms (${fmt(prebuilt)})`,
  );
  console.log(`ratio prebuilt / sources: ${(median(prebuilt) / median(sources)).toFixed(3)}`);
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1e6;
}

async function cacheCost(): Promise<void> {
  const suite = await createSuite();
  try {
    await Harness.run(suite, async (h) => {
      await h.ledger.deposit({
        id: 'bench-fund',
        asset: 'USDC',
        to: agentOwner(CLIENT),
        amount: 1_000_000_000_000n,
      });
      const handles = [(await h.create(await h.input())).handle];
      const points: Array<{ open: number; heap: number; rss: number }> = [];
      const measure = () =>
        points.push({ open: handles.length, heap: heapMb(), rss: process.memoryUsage().rss / 1e6 });
      measure();
      for (const target of [OPEN / 2, OPEN]) {
        while (handles.length < target) handles.push((await h.create(await h.input())).handle);
        measure();
      }
      for (const p of points) {
        console.log(`${p.open} open contracts: heap ${p.heap.toFixed(1)} MB, RSS ${p.rss.toFixed(1)} MB`);
      }
      const [, half, full] = points as [unknown, (typeof points)[0], (typeof points)[0]];
      const per = (key: 'heap' | 'rss') => ((full[key] - half[key]) * 1000) / (full.open - half.open);
      console.log(
        `per cached contract (${half.open} -> ${full.open}): ${per('rss').toFixed(0)} kB RSS, ${per('heap').toFixed(0)} kB main-thread heap`,
      );
      for (const handle of handles) await handle.terminate('bench');
    });
  } finally {
    await suite.teardown();
  }
}

/** What a cache miss costs: replaying a saved history from its start. */
async function replayCost(): Promise<void> {
  const dir = join(import.meta.dirname, '../../test/histories');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('legacy-'));
  const histories = files.map((file) => ({
    workflowId: file,
    history: historyFromFile(readFileSync(join(dir, file), 'utf8')),
  }));
  const events = histories.reduce((n, h) => n + (h.history.events?.length ?? 0), 0);
  const options = {
    workflowBundle: await prebuiltWorkflowBundle(),
    dataConverter: { payloadCodecs: [createPayloadCodec(HISTORY_CODEC_KEY)] },
  };
  for await (const r of Worker.runReplayHistories(options, histories.slice(0, 1))) void r; // warm-up
  const started = performance.now();
  for await (const r of Worker.runReplayHistories(options, histories)) {
    if (r.error) throw r.error;
  }
  const ms = performance.now() - started;
  console.log(
    `replay (a cache miss): ${histories.length} histories, ${events} events in ${ms.toFixed(0)} ms; ` +
      `${(ms / histories.length).toFixed(1)} ms per contract`,
  );
}

async function main(): Promise<void> {
  await startTimes();
  await replayCost();
  await cacheCost();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
