// SQLite ledger files written by the schema-version-1 and -2 stores (support/ledger-v1.sql,
// ledger-v2.sql: the same contents) open with the current store (on the caller's thread and on its own
// thread), keep every balance, hold and operation id, and go on working with their guards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openLedger } from '../../store/ledger';
import { bodyDigest } from '../../store/ledger/sqlite-store';
import { alice, assertVersionOneContents, bob } from './support/v1-fixture';

function olderFile(dir: string, version: number): string {
  const path = join(dir, 'ledger.db');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(readFileSync(join(__dirname, 'support', `ledger-v${version}.sql`), 'utf8'));
  db.close();
  return path;
}

function inspect(path: string, sql: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

for (const [version, thread] of [
  [1, false],
  [1, true],
  [2, false],
  [2, true],
] as const) {
  test(`a ledger file of schema version ${version} is upgraded on open and keeps working (${thread ? 'own thread' : 'in process'})`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), `oc-ledger-v${version}-`));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = olderFile(dir, version);
    const seqBefore = inspect(path, 'SELECT seq, op_id, idx FROM ledger_transfers ORDER BY seq');
    const operations = () =>
      inspect(path, 'SELECT id, kind, body, created_at FROM ledger_operations ORDER BY id') as Array<{
        id: string;
        body: string;
      }>;
    const operationsBefore = operations();

    const ledger = await openLedger({ kind: 'sqlite', path, thread });
    try {
      // Everything the old file held, unchanged.
      await assertVersionOneContents(ledger);

      // Ids applied before the upgrade replay; new postings continue the sequence.
      assert.equal(
        (await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 1000n })).replayed,
        true,
      );
      await ledger.resolve({ id: 'c2:settle:0', holdId: 'c2:escrow', parts: [{ to: bob, amount: 200n }] });
      await assert.rejects(
        ledger.voidHold({ id: 'c2:again', holdId: 'c2:escrow' }),
        (e: { code?: string }) => e.code === 'HoldAlreadyResolved',
      );
      const postings = await ledger.postingsByContract('c2');
      assert.deepEqual(
        postings.map((p) => [p.type, p.seq > 7n]),
        [
          ['pending', false],
          ['post', true],
        ],
      );
      // Rows written before name their contract themselves, and are read once.
      assert.deepEqual(
        (await ledger.postingsByContract('c1')).map((p) => [p.seq, p.contractId]),
        [
          [2n, 'c1'],
          [5n, 'c1'],
          [6n, 'c1'],
          [7n, 'c1'],
        ],
      );
      assert.equal((await ledger.audit()).openHolds, 1);
    } finally {
      await ledger.close();
    }

    // The rows kept their sequence numbers, the file is stamped, and the database still refuses a
    // second resolution and any change to a row on its own.
    assert.deepEqual(
      inspect(path, 'SELECT seq, op_id, idx FROM ledger_transfers WHERE seq <= 7 ORDER BY seq'),
      seqBefore,
    );
    assert.deepEqual(inspect(path, 'PRAGMA user_version'), [{ user_version: 3 }]);
    // Each operation kept its id, kind and time; its body became the body's digest.
    const kept = new Set(operationsBefore.map((row) => row.id));
    assert.deepEqual(
      operations().filter((row) => kept.has(row.id)),
      operationsBefore.map((row) => ({ ...row, body: bodyDigest(row.body) })),
    );
    assert.deepEqual(inspect(path, 'PRAGMA foreign_key_check'), []);
    assert.deepEqual(
      inspect(
        path,
        "SELECT name FROM sqlite_schema WHERE tbl_name = 'ledger_transfers' AND type = 'index' ORDER BY name",
      ),
      [
        { name: 'ledger_transfers_contract' },
        { name: 'ledger_transfers_hold' },
        { name: 'ledger_transfers_holder' },
      ],
    );
    // seq is a plain row id (no AUTOINCREMENT, so no sqlite_sequence row written per commit).
    assert.deepEqual(
      inspect(
        path,
        "SELECT name FROM sqlite_schema WHERE name = 'ledger_transfers' AND sql LIKE '%AUTOINCREMENT%'",
      ),
      [],
    );
    const db = new Database(path);
    try {
      db.pragma('foreign_keys = ON');
      assert.throws(() => db.exec('DELETE FROM ledger_transfers'), /immutable/);
      assert.throws(
        () =>
          db.exec(`BEGIN;
          INSERT INTO ledger_operations VALUES ('raw', 'resolve', '{}', 'now');
          INSERT INTO ledger_transfers (op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, created_at)
          VALUES ('raw', 0, 'void', 'USDC', '${alice}', NULL, 300, 'c1:escrow', 'c1:escrow', 'escrow', 'now');
          COMMIT`),
        /already resolved|unique/i,
      );
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    }

    // Opening the upgraded file again changes nothing.
    const again = await openLedger({ kind: 'sqlite', path, thread });
    try {
      assert.deepEqual((await again.balances(alice)).USDC, { available: 400n, held: 100n });
      await again.audit();
    } finally {
      await again.close();
    }
  });
}
