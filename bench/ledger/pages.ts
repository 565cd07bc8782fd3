// Pages the SQLite ledger writes per commit, counted from the WAL: a file holding HOLDS holds, then
// COMMITS escrow holds one per transaction, then COMMITS settle-shaped batches (five escrow holds each
// resolved to the provider and the treasury's fee), each side after a checkpoint that empties the WAL.
// Raw, for scale: the benchmark's scratch row (bench/ledger/run.ts), one per transaction.
// Ids are sequential (`hold:1`, `hold:2`, ...) or random (`BENCH_RANDOM_IDS=1`, as contract ids are).
// Run: npx tsx bench/ledger/pages.ts
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { agentOwner } from '../../store/ledger';
import type { Ledger, LedgerOp } from '../../store/ledger';
import { openSqliteLedger } from '../../store/ledger/sqlite-store';

const HOLDS = Number(process.env.BENCH_HOLDS ?? 20_000);
const COMMITS = 50;
const RANDOM = process.env.BENCH_RANDOM_IDS === '1';
const client = agentOwner('0x' + 'c'.repeat(40));
const provider = agentOwner('0x' + 'd'.repeat(40));

const escrowHold = (id: string): LedgerOp => ({
  kind: 'hold',
  id,
  owner: client,
  asset: 'USDC',
  amount: 10n,
  holdKind: 'escrow',
  contractId: id,
});

const settle = (holdIds: string[]): LedgerOp[] =>
  holdIds.map((holdId) => ({
    kind: 'resolve',
    id: `${holdId}:settle`,
    holdId,
    parts: [
      { to: provider, amount: 9n },
      { to: 'treasury', amount: 1n },
    ],
  }));

interface Pages {
  total: number;
  /** Frames per commit by the table or index the page belongs to (dbstat). */
  byTree: Map<string, number>;
}

/** WAL frames (pages) written per commit by `COMMITS` calls of `commit`, from the frames' headers. */
async function pagesPerCommit(
  path: string,
  db: Database.Database,
  commit: (i: number) => Promise<void>,
): Promise<Pages> {
  db.pragma('wal_checkpoint(TRUNCATE)');
  // A read snapshot held meanwhile keeps an automatic checkpoint from restarting the WAL, so every
  // frame written stays in the file to be counted.
  const reader = new Database(path, { readonly: true });
  reader.exec('BEGIN');
  reader.prepare('SELECT COUNT(*) FROM ledger_accounts').get();
  try {
    for (let i = 0; i < COMMITS; i++) await commit(i);
  } finally {
    reader.close();
  }
  const pageSize = Number(db.pragma('page_size', { simple: true }));
  const wal = readFileSync(`${path}-wal`);
  const tree = new Map<number, string>(
    (db.prepare('SELECT name, pageno FROM dbstat').all() as Array<{ name: string; pageno: number }>).map(
      (r) => [r.pageno, r.name],
    ),
  );
  const byTree = new Map<string, number>();
  let total = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const name = tree.get(wal.readUInt32BE(at)) ?? '(free)';
    byTree.set(name, (byTree.get(name) ?? 0) + 1 / COMMITS);
    total += 1 / COMMITS;
  }
  return { total, byTree };
}

const show = (label: string, pages: Pages) =>
  `${label.padEnd(20)} ${pages.total.toFixed(1).padStart(5)}   ${[...pages.byTree]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n.toFixed(1)}`)
    .join(', ')}`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-ledger-pages-'));
  const path = join(dir, 'ledger.db');
  const ledger: Ledger = openSqliteLedger(path);
  const db = new Database(path);
  try {
    const id = (i: number) => (RANDOM ? `escrow:${randomUUID()}` : `hold:${i}`);
    await ledger.deposit({ id: 'fund', asset: 'USDC', to: client, amount: 1_000_000_000n });
    await ledger.deposit({ id: 'fund-provider', asset: 'USDC', to: provider, amount: 1n });
    await ledger.deposit({ id: 'fund-treasury', asset: 'USDC', to: 'treasury', amount: 1n });
    const open: string[] = [];
    for (let i = 0; i < HOLDS; i += 100) {
      const ids = Array.from({ length: 100 }, (_, k) => id(i + k));
      await ledger.batch(ids.map(escrowHold));
      open.push(...ids);
    }
    const hold = await pagesPerCommit(path, db, async (i) => {
      await ledger.batch([escrowHold(id(HOLDS + i))]);
    });
    const settled = await pagesPerCommit(path, db, async (i) => {
      await ledger.batch(settle(open.slice(i * 5, i * 5 + 5)));
    });
    db.exec(`CREATE TABLE bench_scratch (op_id TEXT NOT NULL, idx INTEGER NOT NULL, asset TEXT NOT NULL,
      debit_owner TEXT NOT NULL, credit_owner TEXT, amount BIGINT NOT NULL, created_at TEXT NOT NULL,
      PRIMARY KEY (op_id, idx))`);
    const insert = db.prepare('INSERT INTO bench_scratch VALUES (?, 0, ?, ?, ?, 1, ?)');
    for (let i = 0; i < HOLDS; i++) insert.run(id(i), 'USDC', client, provider, new Date().toISOString());
    const raw = await pagesPerCommit(path, db, async (i) => {
      insert.run(id(HOLDS + i), 'USDC', client, provider, new Date().toISOString());
    });
    console.log(`pages per commit, ${HOLDS} holds in the file, ${RANDOM ? 'random' : 'sequential'} ids`);
    console.log(show('raw insert', raw));
    console.log(show('hold', hold));
    console.log(show('five-resolve settle', settled));
  } finally {
    db.close();
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
