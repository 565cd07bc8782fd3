// The API's own tables on PostgreSQL (nonces, idempotency records, key vault), for deployments whose
// ledger is on PostgreSQL: any number of API processes then share them. One pool serves all three
// stores; the stores never close it, its opener does.
import { Pool } from 'pg';

export type { Pool as PostgresPool } from 'pg';

export interface PostgresPoolOptions {
  connectionString: string;
  /** A schema to keep the tables in (created if missing); default: the connection's search_path. */
  schema?: string;
  /** Connections in the pool (default 4). */
  poolSize?: number;
}

/** Arbitrary constant key: serializes table creation between processes opening the same database. */
const SCHEMA_LOCK_KEY = 4_242_002;

/** Opens a pool and checks that the server answers; creates `schema` if one is given. */
export async function openPostgresPool(options: PostgresPoolOptions): Promise<Pool> {
  const { schema } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`schema: must be a lowercase identifier, got ${schema}`);
  }
  const pool = new Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 4,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle pooled connection that the server drops is discarded by the pool; without a listener
  // its 'error' event would crash the process.
  pool.on('error', () => undefined);
  try {
    if (schema) await createTables(pool, `CREATE SCHEMA IF NOT EXISTS ${schema}`);
    else await pool.query('SELECT 1');
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}

/**
 * Runs `ddl` (CREATE ... IF NOT EXISTS statements) in one transaction under an advisory lock:
 * two processes creating the same table at once would otherwise collide in the catalog.
 */
export async function createTables(pool: Pool, ddl: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await client.query(ddl);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
