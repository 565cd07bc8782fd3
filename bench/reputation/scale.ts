// Reputation at scale (docs/reputation.md §7): 100,000 outcome records in a SQLite store (50,000
// settled contracts among 2,000 agents), read through the service's ReputationIndex. Prints the cold
// start, one agent's reputation p50/p95 from many viewers (each first read of a viewer computes its
// PageRank and coverage), the same with a new ending appended before every read (each read recomputes),
// and one ending's append (two records, one transaction) in that store. Then, in the same run, what the
// append adds to the FDP path through the API (append-cost.ts: the path with and without it).
// Run: npx tsx bench/reputation/scale.ts
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, percentile } from '../stats';
import { appendCost } from './append-cost';
import { openSqliteOutcomeLog } from '../../store/outcomes';
import { ReputationIndex } from '../../store/outcomes/reputation-index';
import { chainRecord, type ChainedOutcome } from '../../workflows/rules/outcomes';
import { address, random, settledContract } from './synthetic';

const RECORDS = 100_000;
const AGENTS = 2_000;
const next = random(11);
const agents = Array.from({ length: AGENTS }, (_, i) => address(3, i));
const pick = () => agents[Math.floor(next() * AGENTS)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reputation-'));
  const path = join(dir, 'ledger.sqlite');
  try {
    const log = openSqliteOutcomeLog(path);
    // The setup writes the chain in one transaction, as 50,000 appends would but without their fsyncs.
    const db = new Database(path);
    const insert = db.prepare(
      'INSERT INTO outcome_log (sequence, contract_id, milestone_key, role, party, hash, body) VALUES (?, ?, -1, ?, ?, ?, ?)',
    );
    let head: ChainedOutcome | null = null;
    db.transaction(() => {
      for (let c = 0; head === null || head.sequence < RECORDS; c++) {
        const client = pick();
        let worker = pick();
        while (worker === client) worker = pick();
        for (const e of settledContract(`c-${c}`, client, worker, 1 + Math.floor(next() * 100))) {
          head = chainRecord(e, head);
          insert.run(head.sequence, head.contractId, head.role, head.party, head.hash, JSON.stringify(head));
        }
      }
    })();
    db.close();

    const index = new ReputationIndex(log);
    let started = performance.now();
    await index.catchUp();
    const cold = performance.now() - started;

    const reads = async (count: number, before?: (i: number) => Promise<void>) => {
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        await before?.(i);
        const viewer = agents[i % 50]!;
        started = performance.now();
        await index.reputation(pick(), { kind: 'viewer', viewer });
        times.push(performance.now() - started);
      }
      return times;
    };
    const warm = await reads(500);
    const appends: number[] = [];
    const afterAppend = await reads(100, async (i) => {
      const entries = settledContract(`new-${i}`, pick(), agents[0]!, 10);
      const t = performance.now();
      await log.append({ contractId: `new-${i}`, milestoneIndex: null, entries });
      appends.push(performance.now() - t);
    });
    await log.close();

    const ms = (x: number) => `${x.toFixed(2)} ms`;
    console.log(`load ${load()}; ${RECORDS} records, ${AGENTS} agents`);
    console.log(`cold start (fold every record): ${ms(cold)}`);
    console.log(
      `reputation of one agent, 500 reads from 50 viewers: p50 ${ms(percentile(warm, 0.5))}, p95 ${ms(percentile(warm, 0.95))} (goal ≤ 50 ms: p95 / goal = ${(percentile(warm, 0.95) / 50).toFixed(3)})`,
    );
    console.log(
      `the same with an ending appended before each read: p50 ${ms(percentile(afterAppend, 0.5))}, p95 ${ms(percentile(afterAppend, 0.95))} (p95 / goal = ${(percentile(afterAppend, 0.95) / 50).toFixed(3)})`,
    );
    console.log(
      `one ending's append (2 records, synchronous FULL) into the 100,000-record store: p50 ${ms(percentile(appends, 0.5))}, p95 ${ms(percentile(appends, 0.95))}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await appendCost();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
