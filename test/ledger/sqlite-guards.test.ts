// The SQLite file's own resolution guard (the trigger ledger_transfers_check_resolution), written past
// the engine in raw SQL: each of its four refusals, and a resolution it lets through, which the
// balance trigger then applies. The engine checks the same rules first, so no other test reaches it.
// And what the file stores of a resolution's contract: nothing where it is the hold's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { agentOwner, openLedger } from '../../store/ledger';

const alice = agentOwner('0x' + 'a'.repeat(40));
const bob = agentOwner('0x' + 'b'.repeat(40));

test('the SQLite file itself refuses a resolution of an unknown, resolved or overdrawn hold', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'oc-ledger-guards-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'ledger.db');
  const ledger = await openLedger({ kind: 'sqlite', path, thread: false });
  try {
    await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n });
    await ledger.deposit({ id: 'd2', asset: 'USDC', to: bob, amount: 1n });
    for (const id of ['h1', 'h2'])
      await ledger.hold({ id, owner: alice, asset: 'USDC', amount: 40n, holdKind: 'escrow', contractId: id });
  } finally {
    await ledger.close();
  }

  const db = new Database(path);
  t.after(() => db.close());
  db.pragma('foreign_keys = ON');
  /** Resolution rows of hold `hold` by operation `op`: [credit owner or null, amount, closes]. */
  const resolve = (
    op: string,
    hold: string,
    rows: Array<[string | null, number, boolean]>,
    kind = 'escrow',
  ) => {
    db.prepare("INSERT INTO ledger_operations VALUES (?, 'resolve', 'digest', 'now')").run(op);
    const insert = db.prepare(
      `INSERT INTO ledger_transfers (op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, created_at)
       VALUES (?, ?, ?, 'USDC', ?, ?, ?, ?, ?, ?, 'now')`,
    );
    rows.forEach(([credit, amount, closes], idx) =>
      insert.run(op, idx, credit ? 'post' : 'void', alice, credit, amount, hold, closes ? hold : null, kind),
    );
  };
  const refused = (message: RegExp, write: () => void) => {
    db.exec('BEGIN');
    try {
      assert.throws(write, message);
    } finally {
      db.exec('ROLLBACK');
    }
  };

  refused(/resolution of an unknown hold/, () => resolve('r1', 'nope', [[bob, 40, true]]));
  refused(/resolution of an unknown hold/, () => resolve('r1', 'h1', [[bob, 40, true]], 'stake'));
  refused(/resolution of an unknown hold/, () => resolve('r1', 'd1', [[bob, 40, true]]));
  refused(/the first row resolving a hold must close it/, () => resolve('r1', 'h1', [[bob, 40, false]]));
  refused(/resolution exceeds the hold/, () => resolve('r1', 'h1', [[bob, 41, true]]));
  refused(/resolution exceeds the hold/, () =>
    resolve('r1', 'h1', [
      [bob, 30, true],
      [null, 11, false],
    ]),
  );

  // Let through: 30 to bob and 10 back to alice, in one operation; then nothing more for h1.
  db.exec('BEGIN');
  resolve('r1', 'h1', [
    [bob, 30, true],
    [null, 10, false],
  ]);
  db.exec('COMMIT');
  refused(/hold already resolved by another operation/, () => resolve('r2', 'h1', [[null, 1, false]]));
  refused(/hold already resolved by another operation|UNIQUE/, () => resolve('r2', 'h1', [[bob, 1, true]]));
  refused(/resolution exceeds the hold/, () =>
    db
      .prepare(
        `INSERT INTO ledger_transfers (op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, created_at)
         VALUES ('r1', 2, 'void', 'USDC', ?, NULL, 1, 'h1', NULL, 'escrow', 'now')`,
      )
      .run(alice),
  );

  const again = await openLedger({ kind: 'sqlite', path, thread: false });
  try {
    assert.deepEqual((await again.balances(alice)).USDC, { available: 30n, held: 40n });
    assert.deepEqual((await again.balances(bob)).USDC, { available: 31n, held: 0n });
    assert.deepEqual((await again.getHold('h1'))?.resolution, {
      opId: 'r1',
      parts: [
        { to: bob, amount: 30n },
        { to: alice, amount: 10n },
      ],
    });
    assert.equal((await again.getHold('h2'))?.status, 'open');
    await again.audit();
  } finally {
    await again.close();
  }
});

test("a resolution row stores its contract only where it is not its hold's", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'oc-ledger-contracts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'ledger.db');
  const ledger = await openLedger({ kind: 'sqlite', path, thread: false });
  try {
    await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n });
    for (const id of ['a', 'b'])
      await ledger.hold({ id, owner: alice, asset: 'USDC', amount: 10n, holdKind: 'escrow', contractId: id });
    await ledger.resolve({ id: 'a:settle', holdId: 'a', parts: [{ to: bob, amount: 10n }] });
    await ledger.resolve({ id: 'b:settle', holdId: 'b', contractId: 'c', parts: [{ to: bob, amount: 10n }] });
  } finally {
    await ledger.close();
  }
  const db = new Database(path, { readonly: true });
  t.after(() => db.close());
  assert.deepEqual(
    db.prepare("SELECT op_id, contract_id FROM ledger_transfers WHERE type = 'post' ORDER BY seq").all(),
    [
      { op_id: 'a:settle', contract_id: null },
      { op_id: 'b:settle', contract_id: 'c' },
    ],
  );
});
