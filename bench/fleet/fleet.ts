// Creating a fleet (both kinds at once, each with its own pool) and draining it after its common
// deadline, for bench/fleet/run.ts, bench/fleet/sweep.ts and bench/servers/pragmas.ts.
import { readFileSync } from 'node:fs';
import { pool } from '../contracts/pool';
import { rssMb, type Fleet, type FleetStack } from './stack';

/** Creation stops this long before the deadline, so every contract is waiting when it fires. */
const CREATE_MARGIN_MS = 15_000;
const POLL_MS = 2000;
const t0 = performance.now();

export const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const log = (line: string) =>
  console.log(`[fleet +${((performance.now() - t0) / 1000).toFixed(0)}s] ${line}`);

export interface Sample {
  open: number;
  rss: number;
  devServerRss: number;
  dbMb: number;
  perSecond: number;
}

/** Creates both fleets at once, each with its own pool; samples memory at the checkpoints. */
export async function createFleets(
  stack: FleetStack,
  options: { size: number; deadlineAt: number; concurrency: number; checkpoints?: number[] },
) {
  const { size, deadlineAt, concurrency, checkpoints = [] } = options;
  const fleets = Object.keys(stack.workers) as Fleet[];
  const stopAt = deadlineAt - CREATE_MARGIN_MS;
  const samples: Record<Fleet, Sample[]> = { contract: [], shadow: [] };
  const created: Record<Fleet, number> = { contract: 0, shadow: 0 };
  const seconds: Record<Fleet, number> = { contract: 0, shadow: 0 };
  const failed: Record<Fleet, number> = { contract: 0, shadow: 0 };
  const started = performance.now();
  await Promise.all(
    fleets.map(async (fleet) => {
      seconds[fleet] = await pool(size, concurrency, async (i) => {
        if (Date.now() > stopAt) return;
        try {
          await stack.create(fleet, deadlineAt, i);
        } catch (error) {
          // Counted, not fatal: the drain counts what visibility holds, whatever the answer was.
          if (++failed[fleet] <= 3) log(`${fleet} creation failed: ${String(error)}`);
          return;
        }
        const n = ++created[fleet];
        if (n % 1000 === 0 && fleet === 'contract') {
          log(`created ${n}/${size} contracts, ${created.shadow} shadows; load ${load()}`);
        }
        if (checkpoints.includes(n)) {
          const sample = {
            open: n,
            rss: rssMb(stack.workers[fleet]!.pid),
            devServerRss: rssMb(stack.devServer.pid),
            dbMb: stack.dbMb(),
            perSecond: n / ((performance.now() - started) / 1000),
          };
          samples[fleet].push(sample);
          log(
            `${n} ${fleet}s open: ${fleet} worker RSS ${sample.rss.toFixed(0)} MB, dev server ${sample.devServerRss.toFixed(0)} MB, its file ${sample.dbMb.toFixed(0)} MB`,
          );
        }
      });
    }),
  );
  if (failed.contract + failed.shadow > 0) log(`creations failed: ${JSON.stringify(failed)}`);
  return { samples, created, seconds, failed };
}

/** From the deadline until no workflow of the stack's fleets runs; the workers' peak RSS meanwhile. */
export async function drain(stack: FleetStack, deadlineAt: number) {
  const fleets = Object.keys(stack.workers) as Fleet[];
  const peak: Partial<Record<Fleet, number>> = {};
  const done: Partial<Record<Fleet, number>> = {};
  const open: Partial<Record<Fleet, number>> = {};
  await sleep(Math.max(0, deadlineAt - Date.now()));
  for (const fleet of fleets) open[fleet] = await stack.running(fleet);
  let lastLog = Date.now();
  while (fleets.some((f) => done[f] === undefined)) {
    const left: string[] = [];
    for (const fleet of fleets) {
      peak[fleet] = Math.max(peak[fleet] ?? 0, rssMb(stack.workers[fleet]!.pid));
      if (done[fleet] !== undefined) continue;
      // An overloaded dev server answers "unavailable" for a while: counted, tried again next poll.
      const running = await stack.running(fleet).catch((error: unknown) => {
        log(`visibility did not answer: ${String(error)}`);
        return undefined;
      });
      if (running === undefined) continue;
      left.push(`${running} ${fleet}`);
      if (running === 0) done[fleet] = (Date.now() - deadlineAt) / 1000;
    }
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now();
      log(`draining: ${left.join(', ')} still open; load ${load()}`);
    }
    await sleep(POLL_MS);
  }
  return {
    seconds: done as Record<Fleet, number>,
    peak: peak as Record<Fleet, number>,
    open: open as Record<Fleet, number>,
  };
}
