// Ledger throughput on each store, as a ratio to that store's raw insert rate measured in the same run.
// Raw: plain INSERTs of a transfer-shaped row into a scratch table, with the same transaction shape
// (one transaction per posting; then ten postings per transaction) on the same database and settings.
// Ledger: transfers between two funded agents through the ledger (idempotency check, account locks,
// funds check, operation row, transfer row, balance triggers). Run: npx tsx bench/ledger/run.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { agentOwner, openLedger } from '../../activities/ledger';
import type { Ledger, LedgerConfig, LedgerOp } from '../../activities/ledger';
import { startPostgres } from '../../test/support/postgres';

const POSTINGS = Number(process.env.BENCH_POSTINGS ?? 2000);
const BATCH = 10;
const alice = agentOwner('0x' + 'a'.repeat(40));
const bob = agentOwner('0x' + 'b'.repeat(40));

const SCRATCH_DDL = `CREATE TABLE IF NOT EXISTS bench_scratch (
  op_id TEXT NOT NULL, idx INTEGER NOT NULL, asset TEXT NOT NULL, debit_owner TEXT NOT NULL,
  credit_owner TEXT, amount BIGINT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (op_id, idx))`;
const SCRATCH_INSERT = 'INSERT INTO bench_scratch VALUES (?, 0, ?, ?, ?, ?, ?)';

/** Commits `count` postings, `perTx` per transaction, through `commit`; returns postings per second. */
async function rate(
  count: number,
  perTx: number,
  commit: (first: number, n: number) => Promise<void>,
): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i += perTx) await commit(i, Math.min(perTx, count - i));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return count / seconds;
}

function ledgerCommit(ledger: Ledger, run: string) {
  return async (first: number, n: number) => {
    const ops = Array.from({ length: n }, (_, k): LedgerOp => ({
      kind: 'transfer',
      id: `${run}:${first + k}`,
      asset: 'USDC',
      from: (first + k) % 2 ? alice : bob,
      to: (first + k) % 2 ? bob : alice,
      amount: 1n,
    }));
    await ledger.batch(ops);
  };
}

interface Figures {
  store: string;
  shape: string;
  raw: number;
  ledger: number;
}

async function measureLedger(
  config: LedgerConfig,
  raw: (run: string, perTx: number) => Promise<number>,
): Promise<Figures[]> {
  const ledger = await openLedger(config);
  try {
    await ledger.deposit({ id: 'fund:a', asset: 'USDC', to: alice, amount: 1_000_000n });
    await ledger.deposit({ id: 'fund:b', asset: 'USDC', to: bob, amount: 1_000_000n });
    await rate(200, 1, ledgerCommit(ledger, 'warmup')); // JIT, statement caches, pool
    const figures: Figures[] = [];
    for (const perTx of [1, BATCH]) {
      const rawRate = await raw(`raw${perTx}`, perTx);
      const ledgerRate = await rate(POSTINGS, perTx, ledgerCommit(ledger, `ledger${perTx}`));
      figures.push({
        store: config.kind,
        shape: `${perTx} posting(s)/transaction`,
        raw: rawRate,
        ledger: ledgerRate,
      });
    }
    await ledger.audit();
    return figures;
  } finally {
    await ledger.close();
  }
}

async function benchSqlite(dir: string): Promise<Figures[]> {
  const path = join(dir, 'bench.db');
  const config: LedgerConfig = { kind: 'sqlite', path };
  await (await openLedger(config)).close(); // create the schema and pragmas first
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCRATCH_DDL);
  const insert = db.prepare(SCRATCH_INSERT);
  const raw = (run: string, perTx: number) =>
    rate(POSTINGS, perTx, async (first, n) => {
      db.exec('BEGIN IMMEDIATE');
      for (let k = 0; k < n; k++)
        insert.run(`${run}:${first + k}`, 'USDC', alice, bob, 1, new Date().toISOString());
      db.exec('COMMIT');
    });
  try {
    return await measureLedger(config, raw);
  } finally {
    db.close();
  }
}

async function benchPostgres(): Promise<Figures[]> {
  const server = await startPostgres();
  try {
    const connectionString = await server.createDatabase('bench');
    const client = new Client({ connectionString });
    await client.connect();
    await client.query(SCRATCH_DDL);
    const sql = SCRATCH_INSERT.replace(
      /\?/g,
      (() => {
        let n = 0;
        return () => `$${++n}`;
      })(),
    );
    const raw = (run: string, perTx: number) =>
      rate(POSTINGS, perTx, async (first, n) => {
        await client.query('BEGIN');
        for (let k = 0; k < n; k++) {
          await client.query(sql, [`${run}:${first + k}`, 'USDC', alice, bob, '1', new Date().toISOString()]);
        }
        await client.query('COMMIT');
      });
    try {
      return await measureLedger({ kind: 'postgres', connectionString, poolSize: 2 }, raw);
    } finally {
      await client.end();
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-ledger-bench-'));
  try {
    const figures = [...(await benchSqlite(dir)), ...(await benchPostgres())];
    console.log(`ledger throughput, ${POSTINGS} postings per measurement (one transfer = one posting)`);
    console.log('store     shape                         raw inserts/s  ledger postings/s  ratio');
    for (const f of figures) {
      console.log(
        `${f.store.padEnd(9)} ${f.shape.padEnd(29)} ${f.raw.toFixed(0).padStart(13)}  ${f.ledger.toFixed(0).padStart(17)}  ${(f.ledger / f.raw).toFixed(2).padStart(5)}`,
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
