// 4. Idle fleet: BENCH_FLEET open contracts (default 20,000) waiting on their acceptance deadline with
// one contract worker, the dev server on its file; the worker's RSS as the fleet grows (flat once the
// workflow cache, maxCachedWorkflows, is full), then every deadline fires at once and the fleet drains.
// Beside it, at the same time on the same server, a shadow fleet of the same shape (bench/contracts
// shadow workflow: escrow as a local activity, an upsert, the timer; at the deadline a local activity,
// an upsert and one scheduled activity), its worker in a process of its own with the same settings.
// Contracts are created with the function the API's POST /contracts calls (bench/fleet/stack.ts).
// Run: npx tsx bench/fleet/run.ts
//   BENCH_FLEET (default 20000) contracts per fleet; BENCH_FLEET_CONCURRENCY (default 32) creations in flight per fleet.
import { MAX_CACHED_CONTRACTS } from '../../service/worker';
import { createFleets, drain, load, log, sleep } from './fleet';
import { rssMb, startFleetStack, type Fleet } from './stack';

const SIZE = Number(process.env.BENCH_FLEET ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_FLEET_CONCURRENCY ?? 32);
const WARMUP = Math.min(100, SIZE);
const CHECKPOINTS = [...new Set([MAX_CACHED_CONTRACTS, 1000, 5000, 10_000, 20_000, SIZE])]
  .filter((n) => n <= SIZE)
  .sort((a, b) => a - b);

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(9);

async function main(): Promise<void> {
  log(
    `idle fleet: ${SIZE} contracts and ${SIZE} shadows, ${CONCURRENCY} creations in flight per fleet; load ${load()}`,
  );
  const stack = await startFleetStack();
  const { contract: worker, shadow: shadowWorker } = stack.workers as Record<Fleet, { pid: number }>;
  const rss = () => ({
    contract: rssMb(worker.pid),
    shadow: rssMb(shadowWorker.pid),
    devServer: rssMb(stack.devServer.pid),
  });
  try {
    const idle = rss();
    log(
      `workers ready: contract worker RSS ${idle.contract.toFixed(0)} MB, shadow worker ${idle.shadow.toFixed(0)} MB`,
    );

    // A warm-up fleet measures the creation rate, from which the real fleet's common deadline is set.
    const warmDeadline = Date.now() + 60_000;
    const warm = await createFleets(stack, {
      size: WARMUP,
      deadlineAt: warmDeadline,
      concurrency: CONCURRENCY,
    });
    const rate = warm.created.contract / warm.seconds.contract;
    log(`warm-up: ${warm.created.contract} contracts at ${rate.toFixed(1)}/s; waiting for their deadline`);
    await drain(stack, warmDeadline);

    const deadlineAt = Date.now() + Math.ceil(((SIZE / rate) * 1.5 + 60) * 1000);
    log(`fleet deadline in ${((deadlineAt - Date.now()) / 1000).toFixed(0)} s`);
    const { samples, created, seconds } = await createFleets(stack, {
      size: SIZE,
      deadlineAt,
      concurrency: CONCURRENCY,
      checkpoints: CHECKPOINTS,
    });
    log(
      `created ${created.contract} contracts in ${seconds.contract.toFixed(0)} s, ${created.shadow} shadows in ${seconds.shadow.toFixed(0)} s`,
    );
    await sleep(Math.max(0, deadlineAt - 5000 - Date.now()));
    const beforeDeadline = rss();
    const drained = await drain(stack, deadlineAt);
    const after = rss();

    console.log(
      `\nidle fleet, worker RSS as it grows (maxCachedWorkflows ${MAX_CACHED_CONTRACTS}); load ${load()}`,
    );
    console.log('   open  worker MB  shadow MB  dev server MB  server file MB  created/s');
    for (const [i, s] of samples.contract.entries()) {
      const shadow = samples.shadow[i];
      console.log(
        `${fmt(s.open).slice(2)}  ${fmt(s.rss)}  ${fmt(shadow?.rss ?? NaN)}  ${fmt(s.devServerRss)}      ${fmt(s.dbMb)}  ${fmt(s.perSecond, 1)}`,
      );
    }
    console.log(
      `all open, idle, 5 s before the deadline: worker ${beforeDeadline.contract.toFixed(0)} MB, shadow ${beforeDeadline.shadow.toFixed(0)} MB, dev server ${beforeDeadline.devServer.toFixed(0)} MB, server file ${stack.dbMb().toFixed(0)} MB`,
    );
    console.log(
      `peak while draining: worker ${drained.peak.contract.toFixed(0)} MB, shadow ${drained.peak.shadow.toFixed(0)} MB; after: ${after.contract.toFixed(0)} / ${after.shadow.toFixed(0)} MB`,
    );
    const perSecond = (fleet: Fleet) => drained.open[fleet] / drained.seconds[fleet];
    console.log(
      `drain after the common deadline: ${drained.open.contract} contracts in ${drained.seconds.contract.toFixed(0)} s (${perSecond('contract').toFixed(1)}/s), ` +
        `${drained.open.shadow} shadows in ${drained.seconds.shadow.toFixed(0)} s (${perSecond('shadow').toFixed(1)}/s); ` +
        `ratio (product rate / shadow rate) ${(perSecond('contract') / perSecond('shadow')).toFixed(2)}`,
    );
  } finally {
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
