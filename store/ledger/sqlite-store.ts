// The embedded store: one SQLite file (WAL, synchronous=FULL), via better-sqlite3.
// better-sqlite3 is synchronous while the ledger interface is async, so every transaction and read
// runs through one queue: no other statement can slip into an open transaction on the connection.
// Other processes are excluded by BEGIN IMMEDIATE (one writer at a time, waiting up to busy_timeout).
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { SqlLedger } from './engine';
import { MANDATE_SCHEMA } from './mandates';
import { PANEL_SCHEMA, UPGRADE_VOTE_ROWS, voteRowsNeedUpgrade } from './panels';
import {
  CONTRACT_INDEX,
  HOLD_INDEX,
  HOLDER_INDEX,
  OPERATION_COLUMNS,
  TRANSFER_HOLD_COLUMNS,
  TRANSFER_PARTY_COLUMNS,
} from './shared-schema';
import type { Row, SqlDriver, SqlTx } from './sql';
import { TRANSFER_COLUMNS } from './write-sql';
import type { Ledger } from './types';

/**
 * Schema version 3 (PRAGMA user_version). Version 2: ledger_transfers' seq is a plain row id (never
 * reused, since rows are never deleted; AUTOINCREMENT wrote sqlite_sequence at every commit), and the
 * table has three index trees instead of five. Version 3: ledger_operations keeps the SHA-256 of an
 * operation's canonical body instead of the body (its rows shrink from 200-300 bytes to under 100, so
 * its tree's leaves split several times less often), and the resolution trigger answers its four
 * questions in one scan of the hold's rows. Each version writes and syncs fewer pages per commit.
 * Older files are rebuilt on open (MIGRATE_TRANSFERS, MIGRATE_OPERATIONS).
 */
const SCHEMA_VERSION = 3;

/** What a version-3 file keeps of a canonical body: its SHA-256, base64url (43 characters). */
export function bodyDigest(canonical: string): string {
  return createHash('sha256').update(canonical).digest('base64url');
}

function transfersTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
  seq INTEGER PRIMARY KEY,
${TRANSFER_PARTY_COLUMNS}
  amount INTEGER NOT NULL CHECK (typeof(amount) = 'integer' AND amount > 0),
${TRANSFER_HOLD_COLUMNS}
);`;
}

const MIGRATED_COLUMNS = `seq, ${TRANSFER_COLUMNS}`;

/** Version 1 → 2: copies the rows (seq kept) into the new table; its triggers and indexes go with the old one. */
const MIGRATE_TRANSFERS = `
${transfersTable('ledger_transfers_v2')}
INSERT INTO ledger_transfers_v2 (${MIGRATED_COLUMNS}) SELECT ${MIGRATED_COLUMNS} FROM ledger_transfers ORDER BY seq;
DROP TABLE ledger_transfers;
ALTER TABLE ledger_transfers_v2 RENAME TO ledger_transfers;
`;

/** Its body column holds bodyDigest of the canonical body: a replay is told from a conflict by comparing digests. */
function operationsTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
${OPERATION_COLUMNS}
) WITHOUT ROWID;`;
}

/**
 * Version 1 or 2 → 3: the operation rows, each body replaced by its digest (ledger_body_digest, a
 * function of this connection); the old table's triggers go with it. Runs with foreign keys off (the
 * transfer rows reference the table by name, and find the new one once it is renamed).
 */
const MIGRATE_OPERATIONS = `
${operationsTable('ledger_operations_v3')}
INSERT INTO ledger_operations_v3 (id, kind, body, created_at)
  SELECT id, kind, ledger_body_digest(body), created_at FROM ledger_operations;
DROP TABLE ledger_operations;
ALTER TABLE ledger_operations_v3 RENAME TO ledger_operations;
DROP TRIGGER IF EXISTS ledger_transfers_check_resolution;
DROP TRIGGER IF EXISTS ledger_transfers_apply;
`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ledger_accounts (
  owner TEXT NOT NULL,
  asset TEXT NOT NULL CHECK (asset IN ('USDC', 'OCT')),
  debits_posted INTEGER NOT NULL DEFAULT 0,
  credits_posted INTEGER NOT NULL DEFAULT 0,
  debits_pending INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (owner, asset),
  CHECK (owner IN ('treasury', 'mint') OR (owner LIKE 'agent:0x%' AND length(owner) = 48)),
  -- SQLite turns an overflowing integer sum into a float: refuse it.
  CHECK (typeof(debits_posted) = 'integer' AND typeof(credits_posted) = 'integer' AND typeof(debits_pending) = 'integer'),
  CHECK (debits_posted >= 0 AND credits_posted >= 0 AND debits_pending >= 0),
  CHECK (owner <> 'mint' OR debits_pending = 0),
  CHECK (owner = 'mint' OR credits_posted - debits_posted - debits_pending >= 0)
) WITHOUT ROWID;

${operationsTable('ledger_operations')}

${transfersTable('ledger_transfers')}
-- One tree serves a hold, its resolution rows and its closing row, and keeps the closing row unique.
${HOLD_INDEX}
${CONTRACT_INDEX}
${HOLDER_INDEX}

CREATE TRIGGER IF NOT EXISTS ledger_transfers_no_update BEFORE UPDATE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger_transfers rows are immutable'); END;
CREATE TRIGGER IF NOT EXISTS ledger_transfers_no_delete BEFORE DELETE ON ledger_transfers
BEGIN SELECT RAISE(ABORT, 'ledger_transfers rows are immutable'); END;
CREATE TRIGGER IF NOT EXISTS ledger_operations_no_update BEFORE UPDATE ON ledger_operations
BEGIN SELECT RAISE(ABORT, 'ledger_operations rows are immutable'); END;
CREATE TRIGGER IF NOT EXISTS ledger_operations_no_delete BEFORE DELETE ON ledger_operations
BEGIN SELECT RAISE(ABORT, 'ledger_operations rows are immutable'); END;

-- A resolution row must name an existing hold of the same owner, asset and kind; all rows resolving
-- one hold come from one operation, the first of them closes the hold, and together they never exceed
-- it. One scan of the hold's rows (its pending row and the resolution rows so far) answers all four.
CREATE TRIGGER IF NOT EXISTS ledger_transfers_check_resolution BEFORE INSERT ON ledger_transfers
WHEN NEW.type IN ('post', 'void')
BEGIN
  SELECT CASE
    WHEN held IS NULL THEN RAISE(ABORT, 'resolution of an unknown hold')
    WHEN others > 0 THEN RAISE(ABORT, 'hold already resolved by another operation')
    WHEN NEW.closes_hold IS NULL AND closers = 0 THEN RAISE(ABORT, 'the first row resolving a hold must close it')
    WHEN resolved + NEW.amount > held THEN RAISE(ABORT, 'resolution exceeds the hold')
  END
  FROM (SELECT
      MAX(CASE WHEN r.type = 'pending' AND r.asset = NEW.asset AND r.debit_owner = NEW.debit_owner
        AND r.hold_kind = NEW.hold_kind THEN r.amount END) AS held,
      COUNT(CASE WHEN r.type <> 'pending' AND r.op_id <> NEW.op_id THEN 1 END) AS others,
      COUNT(r.closes_hold) AS closers,
      COALESCE(SUM(CASE WHEN r.type <> 'pending' THEN r.amount END), 0) AS resolved
    FROM ledger_transfers r INDEXED BY ledger_transfers_hold WHERE r.hold_id = NEW.hold_id);
END;

-- Balances are a fold of the transfer rows, kept by the database itself: one UPDATE applies a row to
-- both its accounts (the debit and credit owners differ), each under the accounts' CHECKs.
CREATE TRIGGER IF NOT EXISTS ledger_transfers_apply AFTER INSERT ON ledger_transfers
BEGIN
  UPDATE ledger_accounts SET
    debits_posted = debits_posted
      + CASE WHEN owner = NEW.debit_owner AND NEW.type IN ('posted', 'post') THEN NEW.amount ELSE 0 END,
    debits_pending = debits_pending + CASE WHEN owner <> NEW.debit_owner THEN 0
      ELSE CASE NEW.type WHEN 'pending' THEN NEW.amount WHEN 'posted' THEN 0 ELSE -NEW.amount END END,
    credits_posted = credits_posted + CASE WHEN owner = NEW.credit_owner THEN NEW.amount ELSE 0 END
  WHERE asset = NEW.asset AND owner IN (NEW.debit_owner, NEW.credit_owner);
END;
`;

class SqliteDriver implements SqlDriver {
  private readonly statements = new Map<string, Database.Statement>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly tx: SqlTx;

  constructor(private readonly db: Database.Database) {
    const bind = (params: readonly unknown[]) => params.map((p) => (p === undefined ? null : p));
    this.tx = {
      all: async (sql, params = []) => {
        const stmt = this.prepare(sql);
        if (stmt.reader) return stmt.all(...bind(params)) as Row[];
        stmt.run(...bind(params));
        return [];
      },
      run: async (sql, params = []) => {
        this.prepare(sql).run(...bind(params));
      },
    };
  }

  private prepare(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work, work);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private transaction<T>(begin: string, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    // Prepared once like every statement (exec parses its text at each call).
    return this.serialize(async () => {
      this.prepare(begin).run();
      try {
        const result = await fn(this.tx);
        this.prepare('COMMIT').run();
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.prepare('ROLLBACK').run();
        throw error;
      }
    });
  }

  readonly impliedResolutionContracts = true;

  storedBody(canonical: string): string {
    return bodyDigest(canonical);
  }

  write<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN IMMEDIATE', fn);
  }

  read<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN', fn);
  }

  async close(): Promise<void> {
    await this.serialize(async () => this.db.close());
  }
}

const schemaVersion = (db: Database.Database) => Number(db.pragma('user_version', { simple: true }));

/**
 * Upgrades an older file (or stamps a new one) in one write transaction, so processes opening the
 * file at once agree; a current file takes no write lock, as CREATE ... IF NOT EXISTS writes nothing.
 */
function createSchema(db: Database.Database): void {
  if (schemaVersion(db) < SCHEMA_VERSION) {
    // Cannot change inside a transaction; off while the operations table is replaced.
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN IMMEDIATE');
    try {
      const version = schemaVersion(db);
      if (version < SCHEMA_VERSION) {
        const has = (table: string) =>
          db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !==
          undefined;
        if (version < 2 && has('ledger_transfers')) db.exec(MIGRATE_TRANSFERS);
        if (has('ledger_operations')) {
          db.function('ledger_body_digest', { deterministic: true }, (body: unknown) =>
            bodyDigest(String(body)),
          );
          db.exec(MIGRATE_OPERATIONS);
        }
        db.exec(SCHEMA);
        const orphans = db.pragma('foreign_key_check') as unknown[];
        if (orphans.length > 0)
          throw new Error(`ledger migration left ${orphans.length} dangling reference(s)`);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }
  db.exec(SCHEMA);
  upgradeVoteRows(db);
  db.exec(PANEL_SCHEMA);
  db.exec(MANDATE_SCHEMA);
}

/** An older file's vote_rows rebuilt with milestone keys (panels.ts), in one write transaction. */
function upgradeVoteRows(db: Database.Database): void {
  const needed = () =>
    voteRowsNeedUpgrade(
      db
        .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('vote_rows')")
        .all()
        .map((c) => c.name),
    );
  if (!needed()) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Another process opening the file may have upgraded it first.
    if (needed()) db.exec(UPGRADE_VOTE_ROWS);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

export function openSqliteLedger(path: string): Ledger {
  const db = new Database(path);
  db.defaultSafeIntegers(true);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  createSchema(db);
  db.pragma('foreign_keys = ON');
  return new SqlLedger(new SqliteDriver(db));
}
