// A PostgreSQL ledger schema written by the schema-version-1 store (support/ledger-v1-postgres.sql) or the
// version-2 store (support/ledger-v2-postgres.sql) opens with the current store, which upgrades it in
// place: every balance, hold and operation id is kept, and the database's own guards hold without the
// foreign keys that version 1 had and with the statement-level trigger of version 3.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { agentOwner, openLedger } from '../../store/ledger';
import { alice, assertVersionOneContents, bob } from './support/v1-fixture';
import type { LedgerConfig } from '../../store/ledger';
import { startPostgres } from '../support/postgres';
import type { PostgresServer } from '../support/postgres';

let server: PostgresServer;
let connectionString: string;

before(async () => {
  server = await startPostgres();
  connectionString = await server.createDatabase('migration');
});
after(() => server?.stop());

/** Runs `sql` on its own connection with `schema` on the search path. */
async function rawIn<T>(schema: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const result = await client.query(sql);
    const last = Array.isArray(result) ? result[result.length - 1] : result;
    return last.rows as T[];
  } finally {
    await client.end();
  }
}

for (const version of [1, 2]) {
  test(`a PostgreSQL ledger of schema version ${version} is upgraded on open and keeps working`, () =>
    upgrades(version));
}

async function upgrades(version: number): Promise<void> {
  const schema = `ledger_v${version}`;
  const config = (): LedgerConfig => ({ kind: 'postgres', connectionString, schema, poolSize: 2 });
  const raw = <T>(sql: string) => rawIn<T>(schema, sql);
  await raw(readFileSync(join(__dirname, 'support', `ledger-v${version}-postgres.sql`), 'utf8'));
  const seqBefore = await raw('SELECT seq, op_id, idx FROM ledger_transfers ORDER BY seq');

  // Two processes opening the old schema at once: one upgrades it, the other finds it upgraded.
  const [ledger, other] = await Promise.all([openLedger(config()), openLedger(config())]);
  await other.close();
  try {
    await assertVersionOneContents(ledger);

    // Ids applied before the upgrade replay (or conflict); new postings continue the sequence.
    assert.equal(
      (await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 1000n })).replayed,
      true,
    );
    await assert.rejects(
      ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 999n }),
      (e: { code?: string }) => e.code === 'IdempotencyConflict',
    );
    await ledger.resolve({ id: 'c2:settle:0', holdId: 'c2:escrow', parts: [{ to: bob, amount: 200n }] });
    await assert.rejects(
      ledger.voidHold({ id: 'c2:again', holdId: 'c2:escrow' }),
      (e: { code?: string }) => e.code === 'HoldAlreadyResolved',
    );
    await ledger.hold({
      id: 'c3:escrow',
      owner: alice,
      asset: 'USDC',
      amount: 400n,
      holdKind: 'escrow',
      contractId: 'c3',
    });
    await assert.rejects(
      ledger.hold({
        id: 'c4:escrow',
        owner: alice,
        asset: 'USDC',
        amount: 1n,
        holdKind: 'escrow',
        contractId: 'c4',
      }),
      (e: { code?: string }) => e.code === 'InsufficientFunds',
    );
    assert.deepEqual(
      (await ledger.postingsByContract('c2')).map((p) => [p.type, p.seq > 7n]),
      [
        ['pending', false],
        ['post', true],
      ],
    );
    assert.deepEqual((await ledger.balances(alice)).USDC, { available: 0n, held: 500n });
    assert.equal((await ledger.audit()).openHolds, 2);
  } finally {
    await ledger.close();
  }

  // The rows kept their sequence numbers; the schema is stamped and has version 3's keys and indexes.
  assert.deepEqual(
    await raw('SELECT seq, op_id, idx FROM ledger_transfers WHERE seq <= 7 ORDER BY seq'),
    seqBefore,
  );
  assert.deepEqual(await raw('SELECT max(version) AS version FROM ledger_schema_versions'), [{ version: 3 }]);
  assert.deepEqual(
    await raw(`SELECT indexname FROM pg_indexes WHERE schemaname = '${schema}' AND tablename = 'ledger_transfers'
               ORDER BY indexname`),
    [
      { indexname: 'ledger_transfers_contract' },
      { indexname: 'ledger_transfers_hold' },
      { indexname: 'ledger_transfers_holder' },
    ],
  );
  assert.deepEqual(
    await raw(`SELECT conname FROM pg_constraint WHERE conrelid = '${schema}.ledger_transfers'::regclass
               AND contype IN ('f', 'u', 'p')`),
    [],
  );

  // The database still refuses, on its own: a change, a second resolution, a row of no stored
  // operation, a row naming no account, and deleting an account.
  const insert = (op: string, values: string) =>
    `INSERT INTO ledger_transfers (op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, created_at)
     VALUES ('${op}', 0, ${values}, 'now')`;
  const operation = (op: string) =>
    `INSERT INTO ledger_operations VALUES ('${op}', 'transfer', '{}', 'now');`;
  await assert.rejects(raw('DELETE FROM ledger_transfers'), /immutable/);
  await assert.rejects(
    raw(
      `BEGIN; ${operation('raw1')} ${insert('raw1', `'void', 'USDC', '${alice}', NULL, 300, 'c1:escrow', 'c1:escrow', 'escrow'`)}; COMMIT`,
    ),
    /already resolved|unique/i,
  );
  await assert.rejects(
    raw(insert('raw2', `'posted', 'USDC', 'treasury', '${bob}', 1, NULL, NULL, NULL`)),
    /no stored operation raw2/,
  );
  await assert.rejects(
    raw(
      `BEGIN; ${operation('raw3')} ${insert('raw3', `'posted', 'USDC', 'treasury', '${agentOwner('0x' + 'e'.repeat(40))}', 1, NULL, NULL, NULL`)}; COMMIT`,
    ),
    /no account agent:0xe+\/USDC/,
  );
  await assert.rejects(raw(`DELETE FROM ledger_accounts WHERE owner = 'treasury'`), /cannot be deleted/);

  // Rows of one statement are applied in their order: the treasury (10) paying 11 before it receives
  // 5 is an overdraft at the first row though the end balance (4) is not; in the other order it passes.
  const rows = (op: string, values: string[]) =>
    `INSERT INTO ledger_transfers (op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, created_at)
     VALUES ${values.map((v, i) => `('${op}', ${i}, ${v}, 'now')`).join(', ')};`;
  const payOut = `'posted', 'USDC', 'treasury', '${alice}', 11, NULL, NULL, NULL`;
  const payIn = `'posted', 'USDC', '${bob}', 'treasury', 5, NULL, NULL, NULL`;
  await assert.rejects(
    raw(`BEGIN; ${operation('raw4')} ${rows('raw4', [payOut, payIn])} COMMIT`),
    /overdraw account treasury\/USDC/,
  );
  await raw(`BEGIN; ${operation('raw4')} ${rows('raw4', [payIn, payOut])} ROLLBACK`);
  // Several rows name a missing account, or an operation not stored.
  const stranger = agentOwner('0x' + 'e'.repeat(40));
  await assert.rejects(
    raw(
      `BEGIN; ${operation('raw6')} ${rows('raw6', [payIn, `'posted', 'USDC', 'treasury', '${stranger}', 1, NULL, NULL, NULL`])} COMMIT`,
    ),
    /no account agent:0xe+\/USDC/,
  );
  await assert.rejects(raw(rows('raw7', [payIn, payIn])), /no stored operation raw7/);
  // A hold's resolution rows, the first of which does not close it.
  await assert.rejects(
    raw(
      `BEGIN; ${operation('raw5')} ${rows('raw5', [
        `'post', 'USDC', '${alice}', '${bob}', 100, 'c3:escrow', NULL, 'escrow'`,
        `'post', 'USDC', '${alice}', 'treasury', 300, 'c3:escrow', 'c3:escrow', 'escrow'`,
      ])} COMMIT`,
    ),
    /the first row resolving hold c3:escrow must close it/,
  );

  // Opening the upgraded schema again changes nothing; a schema from a newer store is refused.
  const again = await openLedger(config());
  try {
    assert.deepEqual((await again.balances(alice)).USDC, { available: 0n, held: 500n });
    assert.equal((await again.audit()).transfers, 9);
  } finally {
    await again.close();
  }
  await raw('INSERT INTO ledger_schema_versions (version) VALUES (4)');
  await assert.rejects(openLedger(config()), /schema version 4, newer than this store's 3/);
}
