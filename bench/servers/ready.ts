// The embedded dev server's start to ready (service/dev-server.ts: the process spawned, the frontend
// answering GetSystemInfo, the namespace's retention set), median of 5: on a new data directory (the
// first `npm start`, the SQLite schema created) and again on the same file (every later start), for
// each SQLite setting of bench/servers/sqlite-candidates.ts, the settings alternating within a run.
// Run: npx tsx bench/servers/ready.ts   (BENCH_RUNS, default 5)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer } from '../../service/dev-server';
import { freePort } from '../../service/postgres-server';
import { SQLITE_CANDIDATES } from './sqlite-candidates';
import { median } from '../stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function main(): Promise<void> {
  // Ports of its own, so a running service is not disturbed.
  const [port, uiPort] = [await freePort(), await freePort()];
  const times = SQLITE_CANDIDATES.map(() => ({ fresh: [] as number[], again: [] as number[] }));
  for (let i = 0; i < RUNS; i++) {
    for (const [c, candidate] of SQLITE_CANDIDATES.entries()) {
      const dir = mkdtempSync(join(tmpdir(), 'devserver-ready-'));
      try {
        for (const list of [times[c]!.fresh, times[c]!.again]) {
          const started = performance.now();
          const server = await startDevServer(dir, 3, {
            port,
            uiPort,
            sqlitePragmas: candidate.pragmas,
          });
          list.push(performance.now() - started);
          await server.stop();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const show = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  for (const [c, candidate] of SQLITE_CANDIDATES.entries()) {
    console.log(`dev server start to ready, ${candidate.name}, of ${RUNS}:`);
    console.log(`  new data directory: ${show(times[c]!.fresh)}`);
    console.log(`  existing file:      ${show(times[c]!.again)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
