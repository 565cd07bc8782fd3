// The production store: PostgreSQL through `pg`. Transactions run at READ COMMITTED and lock the
// account rows they touch (SELECT ... FOR UPDATE, in one fixed order) before checking balances, so
// concurrent writers from any number of processes serialize per account. Deadlocks, serialization
// failures and a concurrent insert of the same operation id roll back and retry the whole batch.
import { Pool } from 'pg';
import type { PoolClient } from 'pg';
import { SqlLedger } from './engine';
import { MANDATE_SCHEMA } from './mandates';
import { PANEL_SCHEMA, UPGRADE_VOTE_ROWS, voteRowsNeedUpgrade } from './panels';
import {
  CONTRACT_INDEX,
  HOLD_INDEX,
  HOLDER_INDEX,
  OPERATION_COLUMNS,
  TRANSFER_HOLD_COLUMNS_UNKEYED,
  TRANSFER_PARTY_COLUMNS_UNKEYED,
} from './shared-schema';
import type { Row, SqlDriver, SqlTx } from './sql';
import type { Ledger } from './types';

/**
 * Schema version 3 (the highest row of ledger_schema_versions; a database with the ledger's tables and
 * no such table is version 1). Version 2 took the foreign keys off ledger_transfers (the trigger that
 * applies rows to the balances finds the operation and both accounts, which it reads anyway, and
 * refuses a row if one is missing; accounts cannot be deleted), kept four index trees (the embedded
 * store's set: one UNIQUE (hold_id, closes_hold) serves a hold, its resolution rows and its single
 * closing row) and read a hold's rows in one index scan. Version 3 checks and applies a statement's
 * rows once per statement instead of once per row (one UPDATE per account, the resolutions checked
 * per hold) and drops the primary key on seq, which nothing looked a row up by: three index trees.
 * MIGRATE_FROM_1 and MIGRATE_FROM_2 upgrade in place.
 */
const SCHEMA_VERSION = 3;

const MIGRATE_FROM_1 = `
ALTER TABLE ledger_transfers
  DROP CONSTRAINT IF EXISTS ledger_transfers_op_id_fkey,
  DROP CONSTRAINT IF EXISTS ledger_transfers_debit_owner_asset_fkey,
  DROP CONSTRAINT IF EXISTS ledger_transfers_credit_owner_asset_fkey,
  DROP CONSTRAINT IF EXISTS ledger_transfers_closes_hold_key,
  DROP CONSTRAINT IF EXISTS ledger_transfers_op_id_idx_key;
DROP INDEX IF EXISTS ledger_transfers_hold;
DROP INDEX IF EXISTS ledger_transfers_contract;
DROP FUNCTION IF EXISTS ledger_require_new(BIGINT, INTEGER);
`;

/** Versions 1 and 2 applied and checked each row in triggers of its own, and kept seq as the primary key. */
const MIGRATE_FROM_2 = `
DROP TRIGGER IF EXISTS ledger_transfers_check_resolution ON ledger_transfers;
DROP TRIGGER IF EXISTS ledger_transfers_apply ON ledger_transfers;
DROP FUNCTION IF EXISTS ledger_check_resolution();
DROP FUNCTION IF EXISTS ledger_apply_transfer();
ALTER TABLE ledger_transfers DROP CONSTRAINT IF EXISTS ledger_transfers_pkey;
`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ledger_schema_versions (
  version INTEGER PRIMARY KEY,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ledger_accounts (
  owner TEXT NOT NULL,
  asset TEXT NOT NULL CHECK (asset IN ('USDC', 'OCT')),
  debits_posted BIGINT NOT NULL DEFAULT 0,
  credits_posted BIGINT NOT NULL DEFAULT 0,
  debits_pending BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (owner, asset),
  CHECK (owner IN ('treasury', 'mint') OR (owner LIKE 'agent:0x%' AND length(owner) = 48)),
  CHECK (debits_posted >= 0 AND credits_posted >= 0 AND debits_pending >= 0),
  CHECK (owner <> 'mint' OR debits_pending = 0),
  CHECK (owner = 'mint' OR credits_posted::numeric - debits_posted - debits_pending >= 0)
);

CREATE TABLE IF NOT EXISTS ledger_operations (
${OPERATION_COLUMNS}
);

-- seq orders the rows (reads sort by it) but is no key: nothing looks a row up by it.
CREATE TABLE IF NOT EXISTS ledger_transfers (
  seq BIGINT GENERATED ALWAYS AS IDENTITY,
${TRANSFER_PARTY_COLUMNS_UNKEYED}
  amount BIGINT NOT NULL CHECK (amount > 0),
${TRANSFER_HOLD_COLUMNS_UNKEYED}
);
${HOLD_INDEX}
${CONTRACT_INDEX}
${HOLDER_INDEX}

CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
CREATE OR REPLACE TRIGGER ledger_transfers_immutable BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE OR REPLACE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();
CREATE OR REPLACE TRIGGER ledger_operations_immutable BEFORE UPDATE OR DELETE ON ledger_operations
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
CREATE OR REPLACE TRIGGER ledger_operations_no_truncate BEFORE TRUNCATE ON ledger_operations
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_change();

-- Transfer rows name accounts without a foreign key: an account, once created, stays.
CREATE OR REPLACE FUNCTION ledger_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows cannot be deleted', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
CREATE OR REPLACE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_refuse_delete();
CREATE OR REPLACE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_refuse_delete();

-- Fails the statement that calls it unless ok (a one-statement write's own precondition).
CREATE OR REPLACE FUNCTION ledger_require(ok BOOLEAN, problem TEXT) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  IF NOT ok THEN
    RAISE EXCEPTION '%', problem USING ERRCODE = 'check_violation';
  END IF;
  RETURN true;
END $$;

-- Once per INSERT statement, over its rows (new_rows), after all of them are in the table.
--
-- Resolutions, per hold the statement resolves: a resolution row names an existing hold, inserted
-- before it, of the same owner, asset and kind; all rows resolving one hold come from one operation;
-- the first of them closes the hold (the UNIQUE (hold_id, closes_hold) index allows one closing row);
-- together they never exceed it. One scan of each hold's rows answers all of them.
--
-- Balances are a fold of the transfer rows, kept by the database itself. Every row's operation and
-- accounts must exist (what version 1's foreign keys checked): the UPDATEs find the accounts, and lock
-- them. A statement of one row (a hold, a deposit) updates its one or two accounts directly, under the
-- accounts' CHECKs. A statement of several rows (a settle) updates each account it touches once, by
-- its rows' sum; the CHECKs then see only the final state, so the running sums of each account's rows
-- in the rows' order (seq) give its lowest available balance and lowest held amount along the way: an
-- overdraft at any row refuses the statement, as when each row was applied on its own.
CREATE OR REPLACE FUNCTION ledger_apply_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  n INTEGER := 0;
  problem TEXT;
  missing TEXT;
  overdrawn TEXT;
  unstored TEXT;
BEGIN
  FOR r IN SELECT * FROM new_rows LOOP
    n := n + 1;
    EXIT WHEN n > 1;
  END LOOP;
  IF n = 0 THEN
    RETURN NULL;
  END IF;

  IF n > 1 OR r.type IN ('post', 'void') THEN
    SELECT CASE
        WHEN f.hold_amount IS NULL OR f.hold_seq > f.first_seq THEN 'resolution of an unknown hold ' || t.hold_id
        WHEN f.operations > 1 THEN 'hold ' || t.hold_id || ' already resolved by another operation'
        WHEN f.closer_seq IS DISTINCT FROM f.first_seq THEN 'the first row resolving hold ' || t.hold_id || ' must close it'
        ELSE 'resolution exceeds hold ' || t.hold_id
      END INTO problem
    FROM (SELECT DISTINCT hold_id, asset, debit_owner, hold_kind FROM new_rows WHERE type IN ('post', 'void')) t
    CROSS JOIN LATERAL (
      SELECT max(h.amount) FILTER (WHERE h.type = 'pending' AND h.asset = t.asset
               AND h.debit_owner = t.debit_owner AND h.hold_kind = t.hold_kind) AS hold_amount,
             max(h.seq) FILTER (WHERE h.type = 'pending') AS hold_seq,
             sum(h.amount) FILTER (WHERE h.type IN ('post', 'void')) AS resolved,
             count(DISTINCT h.op_id) FILTER (WHERE h.type IN ('post', 'void')) AS operations,
             min(h.seq) FILTER (WHERE h.type IN ('post', 'void')) AS first_seq,
             min(h.seq) FILTER (WHERE h.closes_hold IS NOT NULL) AS closer_seq
      FROM ledger_transfers h WHERE h.hold_id = t.hold_id
    ) f
    WHERE f.hold_amount IS NULL OR f.hold_seq > f.first_seq OR f.operations > 1
       OR f.closer_seq IS DISTINCT FROM f.first_seq OR f.resolved > f.hold_amount
    LIMIT 1;
    IF problem IS NOT NULL THEN
      RAISE EXCEPTION '%', problem USING ERRCODE = 'check_violation';
    END IF;
  END IF;

  IF n = 1 THEN
    -- The operation is looked up inside the debit's update, which saves a statement.
    UPDATE ledger_accounts SET
      debits_posted = debits_posted + CASE WHEN r.type IN ('posted', 'post') THEN r.amount ELSE 0 END,
      debits_pending = debits_pending
        + CASE r.type WHEN 'pending' THEN r.amount WHEN 'posted' THEN 0 ELSE -r.amount END
    WHERE owner = r.debit_owner AND asset = r.asset
      AND EXISTS (SELECT FROM ledger_operations WHERE id = r.op_id);
    IF NOT FOUND THEN
      RAISE EXCEPTION 'transfer names no account %/% or no stored operation %', r.debit_owner, r.asset, r.op_id
        USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF r.credit_owner IS NOT NULL THEN
      UPDATE ledger_accounts SET credits_posted = credits_posted + r.amount
      WHERE owner = r.credit_owner AND asset = r.asset;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'no account %/%', r.credit_owner, r.asset USING ERRCODE = 'foreign_key_violation';
      END IF;
    END IF;
    RETURN NULL;
  END IF;

  WITH moves AS (
    SELECT seq, debit_owner AS owner, asset,
      CASE WHEN type IN ('posted', 'post') THEN amount ELSE 0 END AS debited,
      0::BIGINT AS credited,
      CASE type WHEN 'pending' THEN amount WHEN 'posted' THEN 0 ELSE -amount END AS held
    FROM new_rows
    UNION ALL
    SELECT seq, credit_owner, asset, 0, amount, 0 FROM new_rows WHERE credit_owner IS NOT NULL
  ), running AS (
    SELECT owner, asset, debited, credited, held,
      sum(credited - debited - held) OVER w AS available_so_far, sum(held) OVER w AS held_so_far
    FROM moves WINDOW w AS (PARTITION BY owner, asset ORDER BY seq ROWS UNBOUNDED PRECEDING)
  ), sums AS (
    SELECT owner, asset, sum(debited) AS debited, sum(credited) AS credited, sum(held) AS held,
      min(available_so_far) AS lowest_available, min(held_so_far) AS lowest_held
    FROM running GROUP BY owner, asset
  ), applied AS (
    UPDATE ledger_accounts a SET debits_posted = a.debits_posted + s.debited,
      credits_posted = a.credits_posted + s.credited, debits_pending = a.debits_pending + s.held
    FROM sums s WHERE a.owner = s.owner AND a.asset = s.asset
    -- The balances before the rows (the locked row's latest version less the sums) plus the lowest
    -- running sums.
    RETURNING a.owner, a.asset,
      a.credits_posted::numeric - a.debits_posted - a.debits_pending
        - (s.credited - s.debited - s.held) + s.lowest_available AS lowest_available,
      a.debits_pending - s.held + s.lowest_held AS lowest_held
  )
  SELECT
    (SELECT s.owner || '/' || s.asset FROM sums s
      WHERE NOT EXISTS (SELECT FROM applied p WHERE p.owner = s.owner AND p.asset = s.asset) LIMIT 1),
    (SELECT p.owner || '/' || p.asset FROM applied p
      WHERE (p.owner <> 'mint' AND p.lowest_available < 0) OR p.lowest_held < 0 LIMIT 1),
    (SELECT w.op_id FROM new_rows w
      WHERE NOT EXISTS (SELECT FROM ledger_operations o WHERE o.id = w.op_id) LIMIT 1)
  INTO missing, overdrawn, unstored;
  IF unstored IS NOT NULL THEN
    RAISE EXCEPTION 'transfer names no stored operation %', unstored USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF missing IS NOT NULL THEN
    RAISE EXCEPTION 'no account %', missing USING ERRCODE = 'foreign_key_violation';
  END IF;
  IF overdrawn IS NOT NULL THEN
    RAISE EXCEPTION 'rows overdraw account % at some row', overdrawn USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER ledger_transfers_apply_statement AFTER INSERT ON ledger_transfers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_apply_transfers();

INSERT INTO ledger_schema_versions (version) VALUES (${SCHEMA_VERSION}) ON CONFLICT DO NOTHING;
`;

/** Arbitrary constant key: serializes schema creation between processes opening the same database. */
const SCHEMA_LOCK_KEY = 4_242_001;
const DEADLOCK = '40P01';
const SCHEMA_ATTEMPTS = 10;
const MAX_ATTEMPTS = 20;
const RETRYABLE = new Set(['40001', '40P01']);

const isTransient = (error: unknown) => RETRYABLE.has((error as { code?: string }).code ?? '');

/** Unique indexes whose violation means another transaction got there first; a retry reads what it wrote. */
const RACED_CONSTRAINTS = new Set([
  // The same operation id: the retry sees it and replays.
  'ledger_operations_pkey',
  // The same hold closed by another batch (a hold closes once): the retry sees it closed and refuses.
  'ledger_transfers_hold',
]);

/** In a transaction that claims operation ids first, another one's insert of the same id is transient too. */
function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string };
  return isTransient(error) || (e.code === '23505' && RACED_CONSTRAINTS.has(e.constraint ?? ''));
}

/** `?` placeholders to `$1, $2, ...` (the ledger's SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function bind(params: readonly unknown[]): unknown[] {
  return params.map((p) => (typeof p === 'bigint' ? p.toString() : p === undefined ? null : p));
}

class PostgresDriver implements SqlDriver {
  private readonly statements = new Map<string, { name: string; text: string }>();

  constructor(private readonly pool: Pool) {}

  /** Each distinct statement is prepared once per connection (under a name) and then only bound and run. */
  private txOn(client: PoolClient): SqlTx {
    const query = async (sql: string, params: readonly unknown[]) => {
      let prepared = this.statements.get(sql);
      if (prepared === undefined) {
        prepared = { name: `ledger_${this.statements.size}`, text: numbered(sql) };
        this.statements.set(sql, prepared);
      }
      return (await client.query({ ...prepared, values: bind(params) })).rows as Row[];
    };
    return {
      all: (sql, params = []) => query(sql, params),
      run: async (sql, params = []) => {
        await query(sql, params);
      },
    };
  }

  /** Runs `fn` on one pooled connection, in a transaction opened by `begin` unless it is null. */
  private async once<T>(begin: string | null, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      if (begin === null) return await fn(this.txOn(client));
      await client.query(begin);
      try {
        const result = await fn(this.txOn(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    } finally {
      client.release();
    }
  }

  private async retrying<T>(
    begin: string | null,
    fn: (tx: SqlTx) => Promise<T>,
    retryable: (error: unknown) => boolean,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once(begin, fn);
      } catch (error) {
        if (!retryable(error) || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
      }
    }
  }

  write<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.retrying('BEGIN', fn, isRetryable);
  }

  /** A stored operation id fails a one-statement write at once: the engine then replays it step by step. */
  autocommit<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.retrying(null, fn, isTransient);
  }

  read<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.once('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** The schema version of the ledger's tables on the search path: 0 where there are none yet. */
async function storedVersion(client: PoolClient): Promise<number> {
  const { rows } = await client.query<{ versioned: boolean; created: boolean }>(
    `SELECT to_regclass('ledger_schema_versions') IS NOT NULL AS versioned,
            to_regclass('ledger_transfers') IS NOT NULL AS created`,
  );
  if (!rows[0]?.versioned) return rows[0]?.created ? 1 : 0;
  const versions = await client.query<{ version: number }>(
    'SELECT max(version) AS version FROM ledger_schema_versions',
  );
  return versions.rows[0]?.version ?? 0;
}

/** A vote_rows table on the search path written before rows were keyed by milestone (panels.ts). */
async function voteRowsWithoutMilestones(client: PoolClient): Promise<boolean> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'vote_rows'`,
  );
  return voteRowsNeedUpgrade(rows.map((r) => r.name));
}

export interface PostgresLedgerOptions {
  connectionString: string;
  /** A schema to keep the ledger's tables in (created if missing); default: the connection's search_path. */
  schema?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

export async function openPostgresLedger(options: PostgresLedgerOptions): Promise<Ledger> {
  const { schema } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`schema: must be a lowercase identifier, got ${schema}`);
  }
  const pool = new Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle pooled connection that the server drops (restart, shutdown) is discarded by the pool;
  // without a listener its 'error' event would crash the process.
  pool.on('error', () => undefined);
  const client = await pool.connect().catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      const version = await storedVersion(client);
      if (version > SCHEMA_VERSION) {
        throw new Error(
          `the ledger's tables are at schema version ${version}, newer than this store's ${SCHEMA_VERSION}`,
        );
      }
      if (version === 1) await client.query(MIGRATE_FROM_1);
      if (version === 1 || version === 2) await client.query(MIGRATE_FROM_2);
      await client.query(SCHEMA);
      if (await voteRowsWithoutMilestones(client)) await client.query(UPGRADE_VOTE_ROWS);
      await client.query(PANEL_SCHEMA);
      await client.query(MANDATE_SCHEMA);
      await client.query('COMMIT');
      break;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      // A process starting beside busy ones: replacing the triggers locks tables that running postings
      // hold in another order, and PostgreSQL may pick this idempotent DDL as the deadlock's victim.
      if ((error as { code?: string }).code === DEADLOCK && attempt < SCHEMA_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, 100 * attempt));
        continue;
      }
      client.release();
      await pool.end();
      throw error;
    }
  }
  client.release();
  return new SqlLedger(new PostgresDriver(pool));
}
