// What the outcome log's append adds to the FDP path (docs/reputation.md §7), in one run on one dev
// server with the real SQLite ledger: FDP contracts through the API, in blocks that alternate between
// the worker's outcome log appending as it does in production and the same log skipping the append
// (the workflow still calls its local activity, which answers at once), the order swapped every round
// so a change of load from other processes weighs on both alike. Also the append's own time inside the
// contracts that write it, against their path's time.
// Run by bench/reputation/scale.ts; BENCH_APPEND_ROUNDS (default 8) rounds of BENCH_APPEND_BLOCK (default 8) contracts per side,
//   BENCH_APPEND_CONCURRENCY (default 4) in flight (BENCH_APPEND_ROUNDS=0: not run).
import { fdpContract, fundedPairs } from '../contracts/fdp';
import { pool } from '../contracts/pool';
import { load, mean, percentile } from '../stats';
import { createTemporalClient } from '../../service/temporal-client';
import type { OutcomeLog } from '../../store/outcomes';
import { startDevServiceHarness } from '../../test/support/service';

const ROUNDS = Number(process.env.BENCH_APPEND_ROUNDS ?? 8);
const BLOCK = Number(process.env.BENCH_APPEND_BLOCK ?? 8);
const CONCURRENCY = Number(process.env.BENCH_APPEND_CONCURRENCY ?? 4);

type Side = 'append' | 'skip';

/** The worker's outcome log, timing each append, or skipping it while `skipping` is set. */
function switchable(log: OutcomeLog) {
  const state = { skipping: false, appendMs: [] as number[] };
  const wrapped: OutcomeLog = {
    append: async (append) => {
      if (state.skipping) return { appended: 0, head: 0 };
      const started = performance.now();
      const result = await log.append(append);
      state.appendMs.push(performance.now() - started);
      return result;
    },
    list: (after, limit) => log.list(after, limit),
    listByParty: (party, after, limit) => log.listByParty(party, after, limit),
    head: () => log.head(),
    close: () => log.close(),
  };
  return { state, wrapped };
}

export async function appendCost(): Promise<void> {
  if (ROUNDS === 0) return;
  let log: ReturnType<typeof switchable> | undefined;
  const h = await startDevServiceHarness({
    wrapOutcomes: (opened) => (log = switchable(opened)).wrapped,
  });
  const temporal = createTemporalClient({
    connection: h.env.connection,
    namespace: h.env.namespace ?? 'default',
    codecKey: h.settings.payloadCodecKey,
  });
  try {
    const state = log!.state;
    const pairs = await fundedPairs(h, CONCURRENCY);
    const pathMs: Record<Side, number[]> = { append: [], skip: [] };
    const seconds: Record<Side, number> = { append: 0, skip: 0 };
    const block = async (side: Side | null, count: number) => {
      state.skipping = side === 'skip';
      const took = await pool(count, CONCURRENCY, async (i) => {
        const started = performance.now();
        await fdpContract(temporal, pairs[i % pairs.length]!);
        if (side !== null) pathMs[side].push(performance.now() - started);
      });
      if (side !== null) seconds[side] += took;
    };
    await block(null, 2 * CONCURRENCY); // warm-up: bundles, connections, the first workflow tasks
    state.appendMs.length = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const order: Side[] = round % 2 === 0 ? ['append', 'skip'] : ['skip', 'append'];
      for (const side of order) await block(side, BLOCK);
    }
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    const n = ROUNDS * BLOCK;
    console.log(
      `\nthe outcome append on the FDP path: ${n} contracts per side in ${ROUNDS} alternating rounds, concurrency ${CONCURRENCY}; load ${load()}`,
    );
    for (const side of ['append', 'skip'] as const) {
      console.log(
        `  ${side === 'append' ? 'with the append   ' : 'append skipped    '}: path mean ${ms(mean(pathMs[side]))}, p50 ${ms(percentile(pathMs[side], 0.5))}, p95 ${ms(percentile(pathMs[side], 0.95))}; ${(n / seconds[side]).toFixed(2)} settled/s`,
      );
    }
    const meanRatio = mean(pathMs.append) / mean(pathMs.skip);
    const rateRatio = n / seconds.skip / (n / seconds.append);
    console.log(
      `  path time with / without: mean ${meanRatio.toFixed(3)}, p50 ${(percentile(pathMs.append, 0.5) / percentile(pathMs.skip, 0.5)).toFixed(3)}; settled/s without / with ${rateRatio.toFixed(3)} (goal ≤ 1.05)`,
    );
    console.log(
      `  the append itself (${state.appendMs.length} calls, 2 records each): mean ${ms(mean(state.appendMs))}, p95 ${ms(percentile(state.appendMs, 0.95))}; mean append / mean path = ${(mean(state.appendMs) / mean(pathMs.append)).toFixed(4)} (goal ≤ 0.05)`,
    );
  } finally {
    await h.close();
  }
}
