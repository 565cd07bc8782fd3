// The statements that write a batch: each is one round trip whatever the batch's size (multi-row
// VALUES), and its text depends only on the row counts, so the driver prepares it once per shape.
import { placeholders } from './sql';
import type { SqlTx } from './sql';

export const TRANSFER_COLUMNS =
  'op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, contract_id, created_at';
/** Rows per multi-row INSERT: 12 columns stay far below either database's parameter limit. */
export const ROWS_PER_INSERT = 500;

/** `(?, ?), (?, ?)` for `rows` rows of `columns` columns, or of the given typed placeholders. */
function values(rows: number, columns: number | string): string {
  const row = `(${typeof columns === 'number' ? placeholders(columns) : columns})`;
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

/** A resolve's part whose hold was stored before the batch: [ord, op_id, idx, hold_id, to, amount, closes_hold, contract_id, hold amount]. */
const PART = '?::int, ?, ?::int, ?, ?, ?::bigint, ?, ?, ?::bigint';
/** A transfer row known in full, after its place in the batch: [ord, ...TRANSFER_COLUMNS]. */
const ROW = '?::int, ?, ?::int, ?, ?, ?, ?, ?::bigint, ?, ?, ?, ?, ?';

/**
 * PostgreSQL only: a batch that resolves holds stored before it, as one statement that does not need
 * them read first. Each part of such a resolve (ordinal, operation, index, hold, recipient, amount,
 * closing or not, contract) is joined to its hold, which gives the row its owner, asset, kind and
 * contract, and its type (a part back to the owner is a release); the join also requires the hold's
 * amount to be the parts' sum, and ledger_require, on the operation rows (which every batch has),
 * fails the statement unless every part found its hold (an unknown hold, or parts that do not add
 * up: the step-by-step write then names the error).
 * The accounts are the known ones and the holds' owners and recipients, created and locked in the
 * same order as lockAccountsSql's callers sort them (owner, then asset; byte order). The rows are
 * written in the batch's order (ordinal), the known ones with the joined ones.
 */
export function writeResolvingAtOnceSql(
  ops: unknown[][],
  accounts: unknown[][],
  rows: unknown[][],
  parts: unknown[][],
  now: string,
): { sql: string; params: unknown[] } {
  const known = accounts.length > 0 ? `VALUES ${values(accounts.length, 2)} UNION ` : '';
  const direct = rows.length > 0 ? `SELECT * FROM (VALUES ${values(rows.length, ROW)}) d UNION ALL ` : '';
  return {
    sql: `WITH parts (ord, op_id, idx, hold_id, to_owner, amount, closes_hold, contract_id, total) AS (VALUES ${values(parts.length, PART)}),
   resolved AS (
     SELECT p.*, h.debit_owner AS holder, h.asset, h.hold_kind, COALESCE(p.contract_id, h.contract_id) AS contract
     FROM parts p JOIN ledger_transfers h ON h.hold_id = p.hold_id AND h.type = 'pending' AND h.amount = p.total),
   claimed AS (
     INSERT INTO ledger_operations (id, kind, body, created_at) SELECT * FROM (VALUES ${values(ops.length, 4)}) o
     WHERE ledger_require((SELECT count(*) FROM resolved) = ${parts.length}, 'a resolved hold is unknown or its parts do not add up')),
   locked AS (
     INSERT INTO ledger_accounts (owner, asset)
     SELECT owner, asset FROM (${known}SELECT holder, asset FROM resolved UNION SELECT to_owner, asset FROM resolved) a (owner, asset)
     ORDER BY owner COLLATE "C", asset COLLATE "C"
     ON CONFLICT (owner, asset) DO UPDATE SET debits_posted = ledger_accounts.debits_posted)
   INSERT INTO ledger_transfers (${TRANSFER_COLUMNS})
   SELECT ${TRANSFER_COLUMNS} FROM (${direct}
     SELECT ord, op_id, idx, CASE WHEN to_owner = holder THEN 'void' ELSE 'post' END, asset, holder,
       NULLIF(to_owner, holder), amount, hold_id, closes_hold, hold_kind, contract, ?
     FROM resolved) r (ord, ${TRANSFER_COLUMNS})
   ORDER BY ord`,
    params: [...parts.flat(), ...ops.flat(), ...accounts.flat(), ...rows.flat(), now],
  };
}
