// What a SQLite ledger commit costs the rest of the process: the event loop's delay while escrow
// holds are posted, with the store on the caller's thread (each COMMIT's fsync stops the loop) and on
// a thread of its own (store/ledger/thread-ledger.ts, the product's default). Rounds alternate,
// so load from other processes weighs on both alike.
// Run: npx tsx bench/ledger-thread/run.ts   (BENCH_POSTINGS per round, default 300; BENCH_ROUNDS, default 3;
// BENCH_IN_FLIGHT holds sent at once, default 8)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner, openLedger } from '../../store/ledger';
import type { Ledger } from '../../store/ledger';
import { pool } from '../contracts/pool';
import { load, median } from '../stats';

const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 8);
const owner = agentOwner('0x' + 'c'.repeat(40));
const MODES = [
  { name: 'on the caller’s thread', thread: false },
  { name: 'on its own thread', thread: true },
] as const;

interface Sample {
  seconds: number;
  /** The gaps between ticks of a 1 ms timer while the holds were posted, in ms. */
  p50: number;
  p99: number;
  max: number;
}

/**
 * Posts the holds while a 1 ms timer records how late each of its ticks is. A stall shows as one late
 * tick (the timer cannot fire while the loop is stopped), so the gaps are taken until one tick after
 * the last hold.
 */
async function round(ledger: Ledger, tag: string): Promise<Sample> {
  const gaps: number[] = [];
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 1);
  const start = performance.now();
  await pool(POSTINGS, IN_FLIGHT, async (i) => {
    const id = `${tag}:${i}`;
    await ledger.hold({ id, owner, asset: 'USDC', amount: 1n, holdKind: 'escrow', contractId: id });
  });
  const seconds = (performance.now() - start) / 1000;
  const ticks = gaps.length;
  while (gaps.length === ticks) await new Promise((resolve) => setTimeout(resolve, 1));
  clearInterval(ticker);
  gaps.sort((a, b) => a - b);
  const at = (p: number) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))]!;
  return { seconds, p50: at(0.5), p99: at(0.99), max: gaps[gaps.length - 1]! };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-bench-ledger-thread-'));
  try {
    const ledgers = await Promise.all(
      MODES.map(async ({ thread }) => {
        const ledger = await openLedger({ kind: 'sqlite', path: join(dir, `ledger-${thread}.db`), thread });
        await ledger.deposit({ id: 'fund', asset: 'USDC', to: owner, amount: 10n ** 12n });
        return ledger;
      }),
    );
    const samples: Sample[][] = MODES.map(() => []);
    console.log(`load average before: ${load()}`);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [m, ledger] of ledgers.entries()) samples[m]!.push(await round(ledger, `r${r}`));
    }
    console.log(`load average after: ${load()}`);
    console.log(
      `${POSTINGS} escrow holds per round, ${IN_FLIGHT} in flight, ${ROUNDS} rounds; medians over rounds`,
    );
    console.log('store                      holds/s  1 ms timer gap p50  p99     max (ms)');
    const p99s: number[] = [];
    for (const [m, { name }] of MODES.entries()) {
      const s = samples[m]!;
      const p99 = median(s.map((x) => x.p99));
      p99s.push(p99);
      console.log(
        `${name.padEnd(24)} ${(POSTINGS / median(s.map((x) => x.seconds))).toFixed(0).padStart(9)}` +
          `  ${median(s.map((x) => x.p50))
            .toFixed(2)
            .padStart(14)}  ${p99.toFixed(2).padStart(6)}` +
          `  ${median(s.map((x) => x.max))
            .toFixed(2)
            .padStart(7)}`,
      );
    }
    console.log(`timer gap p99, own thread / caller's thread: ${(p99s[1]! / p99s[0]!).toFixed(3)}`);
    await Promise.all(ledgers.map((l) => l.close()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
