// What the ledger engine needs from a database: transactions that run parameterized SQL.
// Both stores implement it; SQL is written once with `?` placeholders.

export type Row = Record<string, unknown>;

export interface SqlTx {
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  run(sql: string, params?: readonly unknown[]): Promise<void>;
}

export interface SqlDriver {
  /**
   * Only where the database runs INSERTs inside WITH (PostgreSQL): runs `fn` without BEGIN/COMMIT, each
   * statement its own transaction (retried like `write`). A batch written by one statement needs no more.
   */
  autocommit?<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /**
   * What the store keeps of an operation's canonical body in `ledger_operations.body`, and compares a
   * replayed operation's against (SQLite: its digest); the body itself where absent.
   */
  storedBody?(canonical: string): string;
  /**
   * Where true (SQLite), a resolution row whose contract is its hold's stores none (contract_id NULL),
   * so the contract index skips it; reads take the hold's. A settle's rows then enter that index not
   * at all, instead of once each.
   */
  readonly impliedResolutionContracts?: boolean;
  /**
   * Runs `fn` in a read-write transaction. The driver serializes writers as its database needs and
   * retries the whole function on transient conflicts (deadlock, serialization failure, a concurrent
   * insert of the same operation id), so `fn` must only touch the database.
   */
  write<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  /** Runs `fn` on one consistent snapshot. */
  read<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** BIGINT columns come back as bigint (SQLite in safe-integer mode) or as a decimal string (pg). */
export function big(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' || typeof value === 'number') return BigInt(value);
  if (value === null || value === undefined) return 0n;
  throw new TypeError(`not an integer column value: ${String(value)}`);
}

export function str(value: unknown): string {
  return String(value);
}

export function nullableStr(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
