// Ledger throughput on each store, as a ratio to that store's raw insert rate measured in the same run.
// Raw: plain INSERTs of a posting-shaped row into a scratch table, one statement per row (prepared),
// with the same transaction shape on the same database and settings, in alternating rounds.
// Ledger: the postings the product makes. One posting per transaction: an escrow hold (lockEscrow).
// Ten per transaction: a settle-shaped batch, five escrow holds each resolved to the provider and the
// treasury's fee (idempotency, account locks, hold checks, operation rows, transfer rows, balance triggers).
// Run: npx tsx bench/ledger/run.ts   (BENCH_POSTINGS sets the postings per measurement; BENCH_STORES,
// e.g. `postgres`, the stores to measure, default `sqlite,sqlite-in-process,postgres`: `sqlite` is the
// store on its own thread, as the service runs it, `sqlite-in-process` the store on the caller's thread)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { agentOwner, openLedger } from '../../store/ledger';
import type { Ledger, LedgerConfig, LedgerOp } from '../../store/ledger';
import { startPostgres } from '../../test/support/postgres';
import { load } from '../stats';

const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 2000);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,sqlite-in-process,postgres').split(',');
const BATCH = 10;
const client = agentOwner('0x' + 'c'.repeat(40));
const provider = agentOwner('0x' + 'd'.repeat(40));
const FEE = 1n;
const ESCROW = 10n;

const SCRATCH_DDL = `CREATE TABLE IF NOT EXISTS bench_scratch (
  op_id TEXT NOT NULL, idx INTEGER NOT NULL, asset TEXT NOT NULL, debit_owner TEXT NOT NULL,
  credit_owner TEXT, amount BIGINT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (op_id, idx))`;
const SCRATCH_INSERT = 'INSERT INTO bench_scratch VALUES (?, 0, ?, ?, ?, ?, ?)';

/** Rounds that alternate raw and ledger, so load from other processes weighs on both alike. */
const ROUNDS = 10;

type Commit = (first: number, n: number) => Promise<void>;

/** Commits postings [from, to), `perTx` per transaction; returns the seconds taken. */
async function timed(from: number, to: number, perTx: number, commit: Commit): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = from; i < to; i += perTx) await commit(i, Math.min(perTx, to - i));
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Server CPU seconds used so far by the database's client connections (PostgreSQL), or 0. */
type CpuClock = () => Promise<number>;
const noServer: CpuClock = async () => 0;

interface Rates {
  raw: number;
  ledger: number;
  /** Server CPU microseconds per posting, raw and ledger (0 where there is no server). */
  rawCpu: number;
  ledgerCpu: number;
}

/** Postings per second of `raw` and of `ledger` over `count` postings each, in alternating rounds. */
async function rates(
  count: number,
  perTx: number,
  raw: Commit,
  ledger: Commit,
  cpu: CpuClock,
): Promise<Rates> {
  const chunk = Math.ceil(count / ROUNDS / perTx) * perTx;
  const seconds = { raw: 0, ledger: 0, rawCpu: 0, ledgerCpu: 0 };
  const measure = async (side: 'raw' | 'ledger', from: number, to: number, commit: Commit) => {
    const cpuBefore = await cpu();
    seconds[side] += await timed(from, to, perTx, commit);
    seconds[`${side}Cpu`] += (await cpu()) - cpuBefore;
  };
  for (let from = 0; from < count; from += chunk) {
    const to = Math.min(count, from + chunk);
    await measure('raw', from, to, raw);
    await measure('ledger', from, to, ledger);
  }
  return {
    raw: count / seconds.raw,
    ledger: count / seconds.ledger,
    rawCpu: (seconds.rawCpu * 1e6) / count,
    ledgerCpu: (seconds.ledgerCpu * 1e6) / count,
  };
}

const escrowHold = (id: string): LedgerOp => ({
  kind: 'hold',
  id,
  owner: client,
  asset: 'USDC',
  amount: ESCROW,
  holdKind: 'escrow',
  contractId: id,
});

/** One posting per transaction: lockEscrow's hold. */
function holdCommit(ledger: Ledger, run: string) {
  return async (first: number) => {
    await ledger.batch([escrowHold(`${run}:${first}`)]);
  };
}

/** `n` postings per transaction: settles of escrow holds opened beforehand, two postings each. */
async function settleCommit(ledger: Ledger, run: string, count: number) {
  for (let i = 0; i < count; i += 2 * 50) {
    const ids = Array.from({ length: Math.min(50, (count - i) / 2) }, (_, k) => `${run}:${i / 2 + k}`);
    await ledger.batch(ids.map(escrowHold));
  }
  return async (first: number, n: number) => {
    const ops = Array.from({ length: n / 2 }, (_, k): LedgerOp => {
      const holdId = `${run}:${first / 2 + k}`;
      return {
        kind: 'resolve',
        id: `${holdId}:settle`,
        holdId,
        contractId: holdId,
        parts: [
          { to: provider, amount: ESCROW - FEE },
          { to: 'treasury', amount: FEE },
        ],
      };
    });
    await ledger.batch(ops);
  };
}

interface Figures extends Rates {
  store: string;
  shape: string;
}

/**
 * `settled` runs once the postings to measure are set up: PostgreSQL's ANALYZE there, as autovacuum does
 * on a live database (a fresh one has no statistics, and its planner reads holds through the wrong index).
 */
async function measureLedger(
  config: LedgerConfig,
  raw: (run: string) => Commit,
  settled: () => Promise<void> = async () => undefined,
  cpu: CpuClock = noServer,
): Promise<Figures[]> {
  const ledger = await openLedger(config);
  try {
    await ledger.deposit({ id: 'fund', asset: 'USDC', to: client, amount: 1_000_000_000n });
    await timed(0, 200, 1, holdCommit(ledger, 'warmup')); // JIT, statement caches, pool
    await timed(0, 200, BATCH, await settleCommit(ledger, 'warmup-settle', 200));
    const figures: Figures[] = [];
    for (const perTx of [1, BATCH]) {
      const commit =
        perTx === 1 ? holdCommit(ledger, 'hold') : await settleCommit(ledger, 'settle', POSTINGS);
      await settled();
      figures.push({
        store: config.kind === 'sqlite' && config.thread === false ? 'sqlite-in-process' : config.kind,
        shape: perTx === 1 ? '1 posting/tx (hold)' : `${perTx} postings/tx (settle)`,
        ...(await rates(POSTINGS, perTx, raw(`raw${perTx}`), commit, cpu)),
      });
    }
    await ledger.audit();
    return figures;
  } finally {
    await ledger.close();
  }
}

async function benchSqlite(dir: string, thread: boolean): Promise<Figures[]> {
  const path = join(dir, thread ? 'bench-thread.db' : 'bench.db');
  const config: LedgerConfig = { kind: 'sqlite', path, thread };
  await (await openLedger(config)).close(); // create the schema and pragmas first
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCRATCH_DDL);
  const insert = db.prepare(SCRATCH_INSERT);
  const raw =
    (run: string): Commit =>
    async (first, n) => {
      db.exec('BEGIN IMMEDIATE');
      for (let k = 0; k < n; k++)
        insert.run(`${run}:${first + k}`, 'USDC', client, provider, 1, new Date().toISOString());
      db.exec('COMMIT');
    };
  try {
    return await measureLedger(config, raw);
  } finally {
    db.close();
  }
}

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, from /proc) of the server processes serving the bench database's clients:
 * the raw connection and the ledger's pool. Unlike wall time, other load on the machine barely moves it.
 */
async function backendCpu(pg: Client): Promise<number> {
  const { rows } = await pg.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'",
  );
  let ticks = 0;
  for (const { pid } of rows) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks / TICKS_PER_SECOND;
}

async function benchPostgres(): Promise<Figures[]> {
  const server = await startPostgres();
  try {
    const connectionString = await server.createDatabase('bench');
    const pg = new Client({ connectionString });
    await pg.connect();
    await pg.query(SCRATCH_DDL);
    const sql = SCRATCH_INSERT.replace(
      /\?/g,
      (() => {
        let n = 0;
        return () => `$${++n}`;
      })(),
    );
    const raw =
      (run: string): Commit =>
      async (first, n) => {
        await pg.query('BEGIN');
        for (let k = 0; k < n; k++) {
          await pg.query({
            name: 'raw',
            text: sql,
            values: [`${run}:${first + k}`, 'USDC', client, provider, '1', new Date().toISOString()],
          });
        }
        await pg.query('COMMIT');
      };
    try {
      return await measureLedger(
        { kind: 'postgres', connectionString, poolSize: 2 },
        raw,
        async () => {
          await pg.query('ANALYZE');
        },
        () => backendCpu(pg),
      );
    } finally {
      await pg.end();
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-ledger-bench-'));
  try {
    const loadBefore = load();
    const figures = [
      ...(STORES.includes('sqlite') ? await benchSqlite(dir, true) : []),
      ...(STORES.includes('sqlite-in-process') ? await benchSqlite(dir, false) : []),
      ...(STORES.includes('postgres') ? await benchPostgres() : []),
    ];
    console.log(`ledger throughput, ${POSTINGS} postings per measurement`);
    console.log(`load average before: ${loadBefore}; after: ${load()}`);
    console.log(
      'store             shape                         raw inserts/s  ledger postings/s  ratio  server CPU µs/posting raw  ledger  ratio',
    );
    for (const f of figures) {
      const cpu =
        f.ledgerCpu > 0
          ? `${f.rawCpu.toFixed(0).padStart(26)}  ${f.ledgerCpu.toFixed(0).padStart(6)}  ${(f.rawCpu / f.ledgerCpu).toFixed(2).padStart(5)}`
          : '';
      console.log(
        `${f.store.padEnd(17)} ${f.shape.padEnd(29)} ${f.raw.toFixed(0).padStart(13)}  ${f.ledger.toFixed(0).padStart(17)}  ${(f.ledger / f.raw).toFixed(2).padStart(5)}${cpu}`,
      );
    }
    console.log(
      'SQLite: WAL, synchronous=FULL. PostgreSQL 15: the test server (fsync=off, synchronous_commit=off), loopback.',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
