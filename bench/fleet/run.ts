// 4. Idle fleet: BENCH_FLEET open contracts (default 20,000) waiting on their acceptance deadline with
// one contract worker, the dev server on its file; the worker's RSS at each milestone as the fleet grows
// (flat once the workflow cache, maxCachedWorkflows, is full), printed as it is reached; then every
// deadline fires at once and the fleet drains. Beside it, on the same server, a shadow fleet (bench/contracts
// shadow workflow: escrow as a local activity, an upsert, the timer; at the deadline a local activity,
// an upsert and one scheduled activity) with its worker in a process of its own and the same settings,
// its creations spread evenly among the contracts' so that both fleets' timers interleave; the drain
// ratio compares the share of each fleet closed in the same window. The ratio needs fleets of the same
// size (each worker then carries as much with the same slots); BENCH_SHADOW_FLEET=0 measures the RSS
// curve alone, on a fleet twice as large in the same time (docs/performance.md, section 4).
// Contracts are created with the function the API's POST /contracts calls (bench/fleet/stack.ts).
// Run: npx tsx bench/fleet/run.ts
//   BENCH_FLEET (default 20000) contracts; BENCH_SHADOW_FLEET shadows (default as many, 0 for none);
//   BENCH_FLEET_CONCURRENCY (default 32) contracts in flight; BENCH_FLEET_DEADLINE_S seconds from the
//   start of creation to the common deadline (default 1.5 x the warm-up's pace + 60; creation stops
//   15 s before it); BENCH_FLEET_DRAIN_S (default unlimited) longest drain watched.
import { MAX_CACHED_CONTRACTS } from '../../service/worker';
import { createFleets, drain, log, sleep } from './fleet';
import { load } from '../stats';
import { rssMb, startFleetStack, type Fleet, type FleetStack } from './stack';

const SIZE = Number(process.env.BENCH_FLEET ?? 20_000);
const SHADOWS = Number(process.env.BENCH_SHADOW_FLEET ?? SIZE);
const CONCURRENCY = Number(process.env.BENCH_FLEET_CONCURRENCY ?? 32);
const DEADLINE_S = process.env.BENCH_FLEET_DEADLINE_S
  ? Number(process.env.BENCH_FLEET_DEADLINE_S)
  : undefined;
const DRAIN_S = Number(process.env.BENCH_FLEET_DRAIN_S ?? Infinity);
const WARMUP = Math.min(100, SIZE);
const MILESTONES = new Set([MAX_CACHED_CONTRACTS, 1000, 2000, 5000, 10_000, 20_000, SIZE]);
const IDLE_SAMPLE_MS = 60_000;

const fmt = (n: number, digits = 0) => (Number.isNaN(n) ? '-' : n.toFixed(digits)).padStart(9);

function memory(stack: FleetStack) {
  const mb = (fleet: Fleet) => (stack.workers[fleet] ? rssMb(stack.workers[fleet].pid) : NaN);
  return { contract: mb('contract'), shadow: mb('shadow'), devServer: rssMb(stack.devServer.pid) };
}

const row = (open: string, stack: FleetStack, perSecond: number) => {
  const m = memory(stack);
  return `${open.padStart(7)}  ${fmt(m.contract)}  ${fmt(m.shadow)}  ${fmt(m.devServer)}      ${fmt(stack.dbMb())}  ${fmt(perSecond, 1)}  ${load()}`;
};

async function main(): Promise<void> {
  log(
    `idle fleet: ${SIZE} contracts and ${SHADOWS} shadows, ${CONCURRENCY} contracts in flight; maxCachedWorkflows ${MAX_CACHED_CONTRACTS}; load ${load()}`,
  );
  const stack = await startFleetStack(SHADOWS > 0 ? {} : { workers: ['contract'] });
  try {
    // A warm-up fleet measures the creation rate, from which the real fleet's common deadline is set.
    const warmDeadline = Date.now() + 60_000;
    const warm = await createFleets(stack, {
      size: WARMUP,
      shadows: Math.ceil((WARMUP * SHADOWS) / SIZE),
      deadlineAt: warmDeadline,
      concurrency: CONCURRENCY,
    });
    const rate = warm.created.contract / warm.seconds.contract;
    log(`warm-up: ${warm.created.contract} contracts at ${rate.toFixed(1)}/s; waiting for their deadline`);
    await drain(stack, warmDeadline);

    const deadlineAt = Date.now() + 1000 * (DEADLINE_S ?? Math.ceil((SIZE / rate) * 1.5 + 60));
    log(`fleet deadline in ${((deadlineAt - Date.now()) / 1000).toFixed(0)} s`);
    console.log('\nworker RSS as the fleet grows (MB; each row printed as the milestone is reached)');
    console.log('   open  worker MB  shadow MB  dev server MB  server file MB  created/s  load');
    console.log(row('0', stack, NaN));
    const started = performance.now();
    const { created, seconds, failed } = await createFleets(stack, {
      size: SIZE,
      shadows: SHADOWS,
      deadlineAt,
      concurrency: CONCURRENCY,
      onCreated: (n) => {
        const perSecond = n / ((performance.now() - started) / 1000);
        if (MILESTONES.has(n)) console.log(row(String(n), stack, perSecond));
        if (n % 1000 === 0) {
          const rss = memory(stack).contract.toFixed(0);
          log(
            `created ${n}/${SIZE} contracts (${perSecond.toFixed(1)}/s), worker RSS ${rss} MB; load ${load()}`,
          );
        }
      },
    });
    log(
      `created ${created.contract} contracts in ${seconds.contract.toFixed(0)} s and ${created.shadow} shadows ` +
        `(refused: ${failed.contract} / ${failed.shadow}); idle until the deadline, RSS every ${IDLE_SAMPLE_MS / 1000} s`,
    );
    console.log(row(`${created.contract}c`, stack, created.contract / seconds.contract));
    while (deadlineAt - Date.now() > IDLE_SAMPLE_MS + 5000) {
      await sleep(IDLE_SAMPLE_MS);
      console.log(row('idle', stack, NaN));
    }
    await sleep(Math.max(0, deadlineAt - 5000 - Date.now()));
    console.log(row('-5s', stack, NaN));

    const drained = await drain(stack, deadlineAt, DRAIN_S);
    const after = memory(stack);
    const fleets = Object.keys(stack.workers) as Fleet[];
    const memoryOf = (fleet: Fleet) =>
      `${fleet} worker ${drained.peak[fleet].toFixed(0)} MB at the peak, ${after[fleet].toFixed(0)} MB after`;
    log(`while draining: ${fleets.map(memoryOf).join('; ')}; load ${load()}`);
    const describe = (fleet: Fleet) => {
      const s = drained.seconds[fleet];
      const open = drained.open[fleet];
      return s === undefined
        ? `${open} ${fleet}s, not drained in ${DRAIN_S} s`
        : `${open} ${fleet}s in ${s.toFixed(0)} s (${(open / s).toFixed(1)}/s)`;
    };
    console.log(`drain after the common deadline: ${fleets.map(describe).join(', ')}`);
    const { contract, shadow } = drained.share;
    if (contract !== undefined && shadow !== undefined) {
      // Equal fleets, timers interleaved in one queue: the share each closed by the time the first had
      // drained is the ratio of their drain rates, and it holds when the window ends first.
      console.log(
        `share closed when the first fleet had drained (or the window ended): contracts ${(contract * 100).toFixed(1)}%, ` +
          `shadows ${(shadow * 100).toFixed(1)}%; ratio (product / shadow pace) ${(contract / shadow).toFixed(2)}`,
      );
    }
  } finally {
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
