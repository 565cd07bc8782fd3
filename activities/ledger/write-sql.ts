// The statements that write a batch: each is one round trip whatever the batch's size (multi-row
// VALUES), and its text depends only on the row counts, so the driver prepares it once per shape.
import { placeholders } from './sql';
import type { SqlTx } from './sql';

export const TRANSFER_COLUMNS =
  'op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, contract_id, created_at';
/** Rows per multi-row INSERT: 12 columns stay far below either database's parameter limit. */
export const ROWS_PER_INSERT = 500;

/** `(?, ?), (?, ?)` for `rows` rows of `columns` columns. */
function values(rows: number, columns: number): string {
  const row = `(${placeholders(columns)})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

const insertTransfers = (rows: number) =>
  `INSERT INTO ledger_transfers (${TRANSFER_COLUMNS}) VALUES ${values(rows, 12)}`;

const insertOperations = (ops: number) =>
  `INSERT INTO ledger_operations (id, kind, body, created_at) VALUES ${values(ops, 4)}`;

/**
 * Creates the missing accounts and locks all of them, in the order given; RETURNING reads each one
 * (the no-op update of an existing row takes its row lock).
 */
export const lockAccountsSql = (accounts: number) =>
  `INSERT INTO ledger_accounts (owner, asset) VALUES ${values(accounts, 2)}
   ON CONFLICT (owner, asset) DO UPDATE SET debits_posted = ledger_accounts.debits_posted
   RETURNING owner, asset, credits_posted, debits_posted, debits_pending`;

/** Stores operation rows (id, kind, body, created_at); returns the ids that were new. */
export const claimOperationsSql = (ops: number) =>
  `${insertOperations(ops)} ON CONFLICT (id) DO NOTHING RETURNING id`;

/** Inserts transfer rows in as few statements as the limit allows. */
export async function insertRows(tx: SqlTx, rows: unknown[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    await tx.run(insertTransfers(chunk.length), chunk.flat());
  }
}

/**
 * PostgreSQL only (writes inside WITH): a batch as one statement, which writes all of it or, failing,
 * nothing. The operation rows are a plain INSERT, so an id stored before fails the statement (a
 * unique violation). Where the batch touches several accounts it creates and locks them, in the order
 * given; where it touches one (holds, voids, a resolve back to the owner), that account must exist and
 * hold the funds, and the balance trigger's update, which refuses a missing account, locks it. The
 * transfer rows' triggers run at the end of the statement, after the operations and accounts exist,
 * and apply the rows in order, each under the accounts' CHECKs.
 */
export function writeAtOnceSql(
  ops: unknown[][],
  accounts: unknown[][],
  rows: unknown[][],
): { sql: string; params: unknown[] } {
  const lock = accounts.length > 1;
  return {
    sql: `WITH claimed AS (${insertOperations(ops.length)})${lock ? `, locked AS (${lockAccountsSql(accounts.length)})` : ''}
   ${insertTransfers(rows.length)}`,
    params: [...ops.flat(), ...(lock ? accounts.flat() : []), ...rows.flat()],
  };
}
