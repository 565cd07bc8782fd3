// The agent feed's tables speak one small SQL surface on both backends: statements written with `?`
// placeholders, run on SQLite (better-sqlite3, its own connection) or PostgreSQL (a pool). A
// transaction on SQLite is serialized with every other statement of this connection, so no
// statement of another caller lands inside it between two awaits.
import { openSqliteFile } from '../sqlite/open';
import type { PostgresPool } from '../postgres/pool';

export type SqlValue = string | number | null;

export interface SqlRunner {
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Rows changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlDb extends SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `fn` in one transaction; on PostgreSQL under the advisory lock `lockKey` when given. */
  tx<T>(fn: (q: SqlRunner) => Promise<T>, lockKey?: number): Promise<T>;
  close(): Promise<void>;
}

export function sqliteDb(path: string): SqlDb {
  const db = openSqliteFile(path);
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const result = queue.then(fn);
    queue = result.catch(() => undefined);
    return result;
  };
  const direct: SqlRunner = {
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => db.prepare(sql).all(...params) as T[],
    run: async (sql, params = []) => db.prepare(sql).run(...params).changes,
  };
  return {
    dialect: 'sqlite',
    all: (sql, params) => serialized(() => direct.all(sql, params)),
    run: (sql, params) => serialized(() => direct.run(sql, params)),
    tx: (fn) =>
      serialized(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      }),
    close: async () => {
      await queue;
      db.close();
    },
  };
}

/** `?` → `$1`, `$2`… (the statements here never hold a literal question mark). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export function postgresDb(pool: PostgresPool, ownsPool: boolean): SqlDb {
  const runner = (q: Pick<PostgresPool, 'query'>): SqlRunner => ({
    all: async <T>(sql: string, params: readonly SqlValue[] = []) =>
      (await q.query(numbered(sql), [...params])).rows as T[],
    run: async (sql, params = []) => (await q.query(numbered(sql), [...params])).rowCount ?? 0,
  });
  return {
    dialect: 'postgres',
    ...runner(pool),
    async tx(fn, lockKey) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (lockKey !== undefined) await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
        const result = await fn(runner(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: async () => {
      if (ownsPool) await pool.end();
    },
  };
}
