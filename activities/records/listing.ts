// The closed-contract listing's SQL, for both dialects: filters on the status column and the
// record's contract code, keyset order (recorded_at, contract_id) descending (docs/records.md).
import type { ClosedContract, ClosedQuery } from './types';

export interface Dialect {
  /** The n-th (1-based) bind placeholder. */
  placeholder(n: number): string;
  /** A text field of the record's view (`contractCode`, `createdAt`, `quoteCount`). */
  viewField(name: string): string;
  /** A text column as compared and ordered bytewise (PostgreSQL's collation may not be). */
  bytewise(column: string): string;
  /** The index the listing's order walks. */
  closedIndex: string;
}

const closedIndex = (column: (name: string) => string) =>
  `CREATE INDEX IF NOT EXISTS contract_records_closed ON contract_records (${column('recorded_at')}, ${column('contract_id')})`;

export const sqliteDialect: Dialect = {
  placeholder: () => '?',
  viewField: (name) => `json_extract(body, '$.view.${name}')`,
  bytewise: (column) => column,
  closedIndex: closedIndex((column) => column),
};

export const postgresDialect: Dialect = {
  placeholder: (n) => `$${n}`,
  viewField: (name) => `(body::jsonb #>> '{view,${name}}')`,
  bytewise: (column) => `${column} COLLATE "C"`,
  closedIndex: closedIndex((column) => `${column} COLLATE "C"`),
};

export interface ClosedRow {
  contract_id: string;
  status: string;
  contract_code: string | null;
  created_at: string;
  recorded_at: string;
  quote_count: number | string | null;
}

export function closedListingSql(dialect: Dialect, query: ClosedQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const at = dialect.bytewise('recorded_at');
  const id = dialect.bytewise('contract_id');
  const where: string[] = [];
  if (query.statuses !== undefined) where.push(`status IN (${query.statuses.map(bind).join(', ')})`);
  if (query.contractCodes !== undefined) {
    where.push(`${dialect.viewField('contractCode')} IN (${query.contractCodes.map(bind).join(', ')})`);
  }
  if (query.after !== undefined) {
    const { closedAt, contractId } = query.after;
    where.push(`(${at} < ${bind(closedAt)} OR (${at} = ${bind(closedAt)} AND ${id} < ${bind(contractId)}))`);
  }
  const sql = `SELECT contract_id, status, ${dialect.viewField('contractCode')} AS contract_code,
    ${dialect.viewField('createdAt')} AS created_at, recorded_at, ${dialect.viewField('quoteCount')} AS quote_count
    FROM contract_records ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${at} DESC, ${id} DESC LIMIT ${bind(query.limit)}`;
  return { sql, params };
}

export function closedFromRow(row: ClosedRow): ClosedContract {
  return {
    contractId: row.contract_id,
    status: row.status,
    contractCode: row.contract_code,
    createdAt: row.created_at,
    closedAt: row.recorded_at,
    quoteCount: row.quote_count === null ? null : Number(row.quote_count),
  };
}
