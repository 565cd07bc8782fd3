// The dev server's SQLite settings against each other: contract creations per second (each one the
// workflow started with its `created` Update, the escrow held by a local activity, the status upserted,
// the deadline timer started: what the server persists for every contract) through the contract worker
// on the dev server's file, in alternating rounds. Start to ready is bench/servers/ready.ts.
// Run: npx tsx bench/servers/pragmas.ts   (BENCH_ROUNDS, default 2; BENCH_CONTRACTS per measurement, default 150)
import { createFleets, log } from '../fleet/fleet';
import { load, mean } from '../stats';
import { startFleetStack } from '../fleet/stack';
import { sqliteJournalMode } from '../../service/dev-server';
import { SQLITE_CANDIDATES } from './sqlite-candidates';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 150);
const CONCURRENCY = 16;
const HOUR = 3_600_000;

async function creationRate(pragmas: string[]): Promise<{ rate: number; mode: string }> {
  const stack = await startFleetStack({ sqlitePragmas: pragmas, workers: ['contract'] });
  try {
    const { created, seconds } = await createFleets(stack, {
      size: CONTRACTS,
      deadlineAt: Date.now() + HOUR,
      concurrency: CONCURRENCY,
    });
    return { rate: created.contract / seconds.contract, mode: sqliteJournalMode(stack.devServer.dbFile) };
  } finally {
    await stack.close();
  }
}

async function main(): Promise<void> {
  log(
    `dev server SQLite settings: ${CONTRACTS} contracts per measurement, concurrency ${CONCURRENCY}; load ${load()}`,
  );
  const rates = SQLITE_CANDIDATES.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, candidate] of SQLITE_CANDIDATES.entries()) {
      const { rate, mode } = await creationRate(candidate.pragmas);
      rates[i]!.push(rate);
      log(
        `round ${round + 1}, ${candidate.name}: ${rate.toFixed(1)} contracts/s (file in ${mode} mode); load ${load()}`,
      );
    }
  }
  const base = mean(rates[0]!);
  console.log(
    `\ncontract creations per second on the dev server's file (${ROUNDS} rounds, mean; ratio to the CLI default)`,
  );
  for (const [i, candidate] of SQLITE_CANDIDATES.entries()) {
    const xs = rates[i]!;
    console.log(
      `${candidate.name.padEnd(50)} ${mean(xs).toFixed(1).padStart(6)}/s  (${xs.map((x) => x.toFixed(1)).join(', ')})  ${(mean(xs) / base).toFixed(2)}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
