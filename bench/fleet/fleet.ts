// Creating a fleet (contracts with their shadows interleaved) and draining it after its common
// deadline, for bench/fleet/run.ts, bench/fleet/sweep.ts and bench/servers/pragmas.ts.
import { load } from '../stats';
import { pool } from '../contracts/pool';
import { rssMb, type Fleet, type FleetStack } from './stack';

/** Creation stops this long before the deadline, so every contract is waiting when it fires. */
const CREATE_MARGIN_MS = 15_000;
const POLL_MS = 2000;
const t0 = performance.now();

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const log = (line: string) =>
  console.log(`[fleet +${((performance.now() - t0) / 1000).toFixed(0)}s] ${line}`);

/** How many shadows are owed once `contracts` contracts were asked for: spread evenly over the fleet. */
const shadowsOwed = (contracts: number, size: number, shadows: number) =>
  Math.floor((contracts * shadows) / size);

/**
 * Creates `size` contracts, `concurrency` at a time, and beside them `shadows` shadows (default: as many
 * as contracts when the stack runs a shadow worker) spread evenly through the contracts' order, so
 * that both fleets' timers, which share one deadline, interleave in the server's timer queue.
 * `onCreated` hears every contract created, with the count so far.
 */
export async function createFleets(
  stack: FleetStack,
  options: {
    size: number;
    shadows?: number;
    deadlineAt: number;
    concurrency: number;
    onCreated?: (contracts: number) => void;
  },
) {
  const { size, deadlineAt, concurrency, onCreated } = options;
  const shadows = stack.workers.shadow ? (options.shadows ?? size) : 0;
  const stopAt = deadlineAt - CREATE_MARGIN_MS;
  const created: Record<Fleet, number> = { contract: 0, shadow: 0 };
  const failed: Record<Fleet, number> = { contract: 0, shadow: 0 };
  let lastContract = 0;
  const started = performance.now();
  const attempt = async (fleet: Fleet, index: number) => {
    try {
      await stack.create(fleet, deadlineAt, index);
    } catch (error) {
      // Counted, not fatal: the drain counts what visibility holds, whatever the answer was.
      if (++failed[fleet] <= 3) log(`${fleet} creation failed: ${String(error)}`);
      return;
    }
    const n = ++created[fleet];
    if (fleet !== 'contract') return;
    lastContract = performance.now();
    onCreated?.(n);
  };
  await pool(size, concurrency, async (i) => {
    if (Date.now() > stopAt) return;
    const from = shadowsOwed(i, size, shadows);
    const to = shadowsOwed(i + 1, size, shadows);
    const shadowJobs = Array.from({ length: to - from }, (_, k) => attempt('shadow', from + k));
    await Promise.all([attempt('contract', i), ...shadowJobs]);
  });
  if (failed.contract + failed.shadow > 0) log(`creations failed: ${JSON.stringify(failed)}`);
  /** From the start to the last contract created (the contracts' creation rate is what callers print). */
  const seconds = { contract: (lastContract - started) / 1000 };
  return { created, seconds, failed };
}

export interface Drained {
  /** Seconds from the deadline until none of the fleet ran; undefined when the window ended first. */
  seconds: Partial<Record<Fleet, number>>;
  /** Each fleet's share closed when the first fleet had drained (or the window ended). */
  share: Partial<Record<Fleet, number>>;
  peak: Record<Fleet, number>;
  open: Record<Fleet, number>;
}

/**
 * From the deadline until no workflow of the stack's fleets runs, or `limitS` seconds after the
 * deadline; the workers' peak RSS meanwhile. Prints what each fleet has left every 30 s.
 */
export async function drain(stack: FleetStack, deadlineAt: number, limitS = Infinity): Promise<Drained> {
  const fleets = Object.keys(stack.workers) as Fleet[];
  const peak: Record<Fleet, number> = { contract: 0, shadow: 0 };
  const done: Partial<Record<Fleet, number>> = {};
  const open: Record<Fleet, number> = { contract: 0, shadow: 0 };
  const left: Record<Fleet, number> = { contract: 0, shadow: 0 };
  let share: Partial<Record<Fleet, number>> | undefined;
  await sleep(Math.max(0, deadlineAt - Date.now()));
  for (const fleet of fleets) open[fleet] = left[fleet] = await stack.running(fleet);
  const closedShare = (): Partial<Record<Fleet, number>> =>
    Object.fromEntries(fleets.map((f) => [f, open[f] === 0 ? 1 : (open[f] - left[f]) / open[f]]));
  let lastLog = Date.now();
  while (fleets.some((f) => done[f] === undefined) && Date.now() - deadlineAt < limitS * 1000) {
    for (const fleet of fleets) {
      peak[fleet] = Math.max(peak[fleet], rssMb(stack.workers[fleet]!.pid));
      if (done[fleet] !== undefined) continue;
      // An overloaded dev server answers "unavailable" for a while: counted, tried again next poll.
      const running = await stack.running(fleet).catch((error: unknown) => {
        log(`visibility did not answer: ${String(error)}`);
        return undefined;
      });
      if (running === undefined) continue;
      left[fleet] = running;
      if (running === 0) done[fleet] = (Date.now() - deadlineAt) / 1000;
    }
    if (share === undefined && fleets.some((f) => done[f] !== undefined)) share = closedShare();
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now();
      const status = fleets.map(
        (f) =>
          `${f} ${open[f] - left[f]}/${open[f]} closed, RSS ${rssMb(stack.workers[f]!.pid).toFixed(0)} MB`,
      );
      log(
        `draining +${((Date.now() - deadlineAt) / 1000).toFixed(0)}s: ${status.join('; ')}; load ${load()}`,
      );
    }
    await sleep(POLL_MS);
  }
  return { seconds: done, share: share ?? closedShare(), peak, open };
}
