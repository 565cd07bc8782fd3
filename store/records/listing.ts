// The read model's tables and listing SQL, for both dialects: the view row per contract
// (`contract_views`), the event log by sequence (`contract_view_events`), and keyset listings of
// open contracts (newest created first) and closed ones (newest closed first) (docs/records.md).
import type { ClosedContract, ListedRow, ListQuery } from './types';

export interface Dialect {
  /** The n-th (1-based) bind placeholder. */
  placeholder(n: number): string;
  /** A text column as compared and ordered bytewise (PostgreSQL's collation may not be). */
  bytewise(column: string): string;
  /** The integer type of the version column. */
  bigint: string;
}

export const sqliteDialect: Dialect = {
  placeholder: () => '?',
  bytewise: (column) => column,
  bigint: 'INTEGER',
};

export const postgresDialect: Dialect = {
  placeholder: (n) => `$${n}`,
  bytewise: (column) => `${column} COLLATE "C"`,
  bigint: 'BIGINT',
};

export function readModelTables(dialect: Dialect): string {
  const order = (at: string) => `${dialect.bytewise(at)}, ${dialect.bytewise('contract_id')}`;
  return `CREATE TABLE IF NOT EXISTS contract_views (
  contract_id TEXT PRIMARY KEY,
  version ${dialect.bigint} NOT NULL,
  status TEXT NOT NULL,
  contract_code TEXT,
  created_at TEXT NOT NULL,
  closed_at TEXT,
  next_deadline TEXT,
  quote_count INTEGER,
  event_count INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS contract_view_events (
  contract_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (contract_id, seq)
);
CREATE INDEX IF NOT EXISTS contract_views_closed ON contract_views (${order('closed_at')});
CREATE INDEX IF NOT EXISTS contract_views_open ON contract_views (${order('created_at')})`;
}

/** The view row's upsert: every column from the write, `closed_at` set once, at the first terminal write. */
export function upsertViewSql(dialect: Dialect): string {
  const p = (n: number) => dialect.placeholder(n);
  return `INSERT INTO contract_views (contract_id, version, status, contract_code, created_at, closed_at, next_deadline, quote_count, event_count, body)
  VALUES (${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(p).join(', ')})
  ON CONFLICT (contract_id) DO UPDATE SET version = excluded.version, status = excluded.status,
    contract_code = excluded.contract_code, created_at = excluded.created_at,
    closed_at = COALESCE(contract_views.closed_at, excluded.closed_at), next_deadline = excluded.next_deadline,
    quote_count = excluded.quote_count, event_count = excluded.event_count, body = excluded.body`;
}

export interface ListedDbRow {
  contract_id: string;
  status: string;
  contract_code: string | null;
  created_at: string;
  closed_at: string | null;
  next_deadline: string | null;
  quote_count: number | string | null;
}

/** A listing page's SQL: open (`created_at`) or closed (`closed_at`) contracts, keyset descending. */
export function listingSql(
  dialect: Dialect,
  order: 'created_at' | 'closed_at',
  query: ListQuery<{ contractId: string; at: string }>,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const at = dialect.bytewise(order);
  const id = dialect.bytewise('contract_id');
  const where = [`status IN (${query.statuses.map(bind).join(', ')})`];
  if (query.contractCodes !== undefined) {
    where.push(`contract_code IN (${query.contractCodes.map(bind).join(', ')})`);
  }
  if (query.after !== undefined) {
    const { at: after, contractId } = query.after;
    where.push(`(${at} < ${bind(after)} OR (${at} = ${bind(after)} AND ${id} < ${bind(contractId)}))`);
  }
  const sql = `SELECT contract_id, status, contract_code, created_at, closed_at, next_deadline, quote_count
    FROM contract_views WHERE ${where.join(' AND ')}
    ORDER BY ${at} DESC, ${id} DESC LIMIT ${bind(query.limit)}`;
  return { sql, params };
}

export function listedFromRow(row: ListedDbRow): ListedRow {
  return {
    contractId: row.contract_id,
    status: row.status,
    contractCode: row.contract_code,
    createdAt: row.created_at,
    closedAt: row.closed_at,
    nextDeadline: row.closed_at === null ? row.next_deadline : null,
    quoteCount: row.quote_count === null ? null : Number(row.quote_count),
  };
}

export const closedFromRow = (row: ListedDbRow) => listedFromRow(row) as ClosedContract;
