// The contract worker's task slots (maxConcurrentWorkflowTaskExecutions / ActivityTaskExecutions /
// LocalActivityExecutions) at a few settings: contracts created per second (a workflow task and a local
// activity each) and drained per second once their common deadline fires (a workflow task replaying
// the history, a local activity, a scheduled activity), on the dev server's file, every setting at once.
// Run: npx tsx bench/fleet/sweep.ts   (BENCH_ROUNDS, default 1; BENCH_CONTRACTS per setting, default 200; BENCH_DEADLINE_S, default 150)
import { CONTRACT_WORKER_TUNING, type ContractWorkerTuning } from '../../service/worker';
import { createFleets, drain, log } from './fleet';
import { startFleetStack } from './stack';
import { load, mean } from '../stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 200);
const CONCURRENCY = 32;
/** Long enough for the creations on this loaded machine; creation stops 15 s before it. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 150) * 1000;

const slots = (workflow: number, activity: number, local: number): ContractWorkerTuning => ({
  ...CONTRACT_WORKER_TUNING,
  maxConcurrentWorkflowTaskExecutions: workflow,
  maxConcurrentActivityTaskExecutions: activity,
  maxConcurrentLocalActivityExecutions: local,
});

const SETTINGS: ReadonlyArray<{ name: string; tuning: ContractWorkerTuning }> = [
  {
    name: 'SDK default slots (40 / 100 / 100)',
    tuning: { maxCachedWorkflows: CONTRACT_WORKER_TUNING.maxCachedWorkflows },
  },
  { name: 'slots 64 / 8 / 8 (the service)', tuning: CONTRACT_WORKER_TUNING },
  { name: 'slots 32 / 8 / 8', tuning: slots(32, 8, 8) },
  { name: 'slots 8 / 8 / 8', tuning: slots(8, 8, 8) },
];

async function measure(tuning: ContractWorkerTuning) {
  const stack = await startFleetStack({ tuning, workers: ['contract'] });
  try {
    const deadlineAt = Date.now() + DEADLINE_MS;
    const { created, seconds, failed } = await createFleets(stack, {
      size: CONTRACTS,
      deadlineAt,
      concurrency: CONCURRENCY,
    });
    const drained = await drain(stack, deadlineAt);
    return {
      create: created.contract / seconds.contract,
      drain: drained.open.contract / (drained.seconds.contract ?? NaN),
      created: created.contract,
      failed: failed.contract,
    };
  } finally {
    await stack.close();
  }
}

async function main(): Promise<void> {
  log(
    `worker slots: ${CONTRACTS} contracts per setting, ${CONCURRENCY} creations in flight each; load ${load()}`,
  );
  const results = SETTINGS.map(() => [] as Array<Awaited<ReturnType<typeof measure>>>);
  for (let round = 0; round < ROUNDS; round++) {
    // Every setting at the same time, each on a dev server and worker of its own: load from other
    // processes (and from each other) weighs on all alike.
    const measured = await Promise.all(SETTINGS.map((setting) => measure(setting.tuning)));
    for (const [i, r] of measured.entries()) {
      results[i]!.push(r);
      log(
        `round ${round + 1}, ${SETTINGS[i]!.name}: created ${r.created} at ${r.create.toFixed(1)}/s (${r.failed} refused), drained at ${r.drain.toFixed(1)}/s`,
      );
    }
  }
  const base = results[0]!;
  console.log(`\ncontract worker slots (${ROUNDS} round(s), mean; ratio to the SDK default)`);
  console.log('setting                               created/s  ratio  drained/s  ratio');
  const c0 = mean(base.map((r) => r.create));
  const d0 = mean(base.map((r) => r.drain));
  for (const [i, setting] of SETTINGS.entries()) {
    const c = mean(results[i]!.map((r) => r.create));
    const d = mean(results[i]!.map((r) => r.drain));
    console.log(
      `${setting.name.padEnd(36)} ${c.toFixed(1).padStart(9)}  ${(c / c0).toFixed(2)}  ${d.toFixed(1).padStart(9)}  ${(d / d0).toFixed(2)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
