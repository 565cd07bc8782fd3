// The contract worker's task slots (maxConcurrentWorkflowTaskExecutions / ActivityTaskExecutions /
// LocalActivityExecutions) at a few settings: contracts created per second (a workflow task and a local
// activity each) and drained per second once their common deadline fires (a workflow task replaying
// the history, a local activity, a scheduled activity), on the dev server's file, alternating rounds.
// Run: npx tsx bench/fleet/sweep.ts   (BENCH_ROUNDS, default 2; BENCH_CONTRACTS per measurement, default 150)
import { CONTRACT_WORKER_TUNING, type ContractWorkerTuning } from '../../service/worker';
import { createFleets, drain, load, log } from './fleet';
import { startFleetStack } from './stack';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 150);
const CONCURRENCY = 32;
/** Long enough for the creations on this loaded machine; creation stops 15 s before it. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 90) * 1000;

const slots = (workflow: number, activity: number, local: number): ContractWorkerTuning => ({
  ...CONTRACT_WORKER_TUNING,
  maxConcurrentWorkflowTaskExecutions: workflow,
  maxConcurrentActivityTaskExecutions: activity,
  maxConcurrentLocalActivityExecutions: local,
});

const SETTINGS: ReadonlyArray<{ name: string; tuning: ContractWorkerTuning }> = [
  { name: 'SDK default slots (40 / 100 / 100)', tuning: CONTRACT_WORKER_TUNING },
  { name: 'slots 8 / 8 / 8', tuning: slots(8, 8, 8) },
  { name: 'slots 4 / 4 / 4', tuning: slots(4, 4, 4) },
  { name: 'slots 2 / 2 / 2', tuning: slots(2, 2, 2) },
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
      drain: drained.open.contract / drained.seconds.contract,
      created: created.contract,
      failed: failed.contract,
    };
  } finally {
    await stack.close();
  }
}

async function main(): Promise<void> {
  log(
    `worker slots: ${CONTRACTS} contracts per measurement, ${CONCURRENCY} creations in flight; load ${load()}`,
  );
  const results = SETTINGS.map(() => [] as Array<Awaited<ReturnType<typeof measure>>>);
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round in reverse order, so a change of load does not favour one end of the list.
    const order = [...SETTINGS.keys()];
    if ((round + Number(process.env.BENCH_ROUND_OFFSET ?? 0)) % 2 === 1) order.reverse();
    for (const i of order) {
      const setting = SETTINGS[i]!;
      const r = await measure(setting.tuning);
      results[i]!.push(r);
      log(
        `round ${round + 1}, ${setting.name}: created ${r.created} at ${r.create.toFixed(1)}/s (${r.failed} refused), drained at ${r.drain.toFixed(1)}/s; load ${load()}`,
      );
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const base = results[0]!;
  console.log(`\ncontract worker slots (${ROUNDS} round(s), mean; ratio to the SDK default)`);
  console.log('setting                               created/s  ratio  drained/s  ratio');
  for (const [i, setting] of SETTINGS.entries()) {
    const c = mean(results[i]!.map((r) => r.create));
    const d = mean(results[i]!.map((r) => r.drain));
    const c0 = mean(base.map((r) => r.create));
    const d0 = mean(base.map((r) => r.drain));
    console.log(
      `${setting.name.padEnd(36)} ${c.toFixed(1).padStart(9)}  ${(c / c0).toFixed(2)}  ${d.toFixed(1).padStart(9)}  ${(d / d0).toFixed(2)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
