// The embedded store: one SQLite file (WAL, synchronous=FULL), via better-sqlite3.
// better-sqlite3 is synchronous while the ledger interface is async, so every transaction and read
// runs through one queue: no other statement can slip into an open transaction on the connection.
// Other processes are excluded by BEGIN IMMEDIATE (one writer at a time, waiting up to busy_timeout).
import Database from 'better-sqlite3';
import { SqlLedger } from './engine';
import { PANEL_SCHEMA } from './panels';
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
 * Schema version 2 (PRAGMA user_version): ledger_transfers' seq is a plain row id (never reused, since
 * rows are never deleted; AUTOINCREMENT wrote sqlite_sequence at every commit), and the table has three
 * index trees instead of five, so a commit writes and syncs fewer pages. Version 1 files are rebuilt
 * on open (MIGRATE_TRANSFERS).
 */
const SCHEMA_VERSION = 2;

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

CREATE TABLE IF NOT EXISTS ledger_operations (
${OPERATION_COLUMNS}
) WITHOUT ROWID;

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
-- one hold come from one operation, the first of them closes the hold, and together they never exceed it.
CREATE TRIGGER IF NOT EXISTS ledger_transfers_check_resolution BEFORE INSERT ON ledger_transfers
WHEN NEW.type IN ('post', 'void')
BEGIN
  SELECT RAISE(ABORT, 'resolution of an unknown hold') WHERE NOT EXISTS (
    SELECT 1 FROM ledger_transfers h INDEXED BY ledger_transfers_hold WHERE h.hold_id = NEW.hold_id AND h.type = 'pending'
      AND h.asset = NEW.asset AND h.debit_owner = NEW.debit_owner AND h.hold_kind = NEW.hold_kind);
  SELECT RAISE(ABORT, 'hold already resolved by another operation') WHERE EXISTS (
    SELECT 1 FROM ledger_transfers r WHERE r.hold_id = NEW.hold_id AND r.type IN ('post', 'void') AND r.op_id <> NEW.op_id);
  SELECT RAISE(ABORT, 'the first row resolving a hold must close it') WHERE NEW.closes_hold IS NULL AND NOT EXISTS (
    SELECT 1 FROM ledger_transfers c WHERE c.hold_id = NEW.hold_id AND c.closes_hold = NEW.hold_id);
  SELECT RAISE(ABORT, 'resolution exceeds the hold') WHERE
    (SELECT COALESCE(SUM(r.amount), 0) FROM ledger_transfers r WHERE r.hold_id = NEW.hold_id AND r.type IN ('post', 'void'))
      + NEW.amount > (SELECT h.amount FROM ledger_transfers h INDEXED BY ledger_transfers_hold WHERE h.hold_id = NEW.hold_id AND h.type = 'pending');
END;

-- Balances are a fold of the transfer rows, kept by the database itself.
CREATE TRIGGER IF NOT EXISTS ledger_transfers_apply AFTER INSERT ON ledger_transfers
BEGIN
  UPDATE ledger_accounts SET
    debits_posted = debits_posted + CASE WHEN NEW.type IN ('posted', 'post') THEN NEW.amount ELSE 0 END,
    debits_pending = debits_pending + CASE NEW.type WHEN 'pending' THEN NEW.amount WHEN 'posted' THEN 0 ELSE -NEW.amount END
  WHERE owner = NEW.debit_owner AND asset = NEW.asset;
  UPDATE ledger_accounts SET credits_posted = credits_posted + NEW.amount
  WHERE NEW.credit_owner IS NOT NULL AND owner = NEW.credit_owner AND asset = NEW.asset;
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
    return this.serialize(async () => {
      this.db.exec(begin);
      try {
        const result = await fn(this.tx);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
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
    db.exec('BEGIN IMMEDIATE');
    try {
      if (schemaVersion(db) < SCHEMA_VERSION) {
        const hasTransfers = db
          .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'ledger_transfers'")
          .get();
        if (hasTransfers !== undefined) db.exec(MIGRATE_TRANSFERS);
        db.exec(SCHEMA);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  db.exec(SCHEMA);
  db.exec(PANEL_SCHEMA);
}

export function openSqliteLedger(path: string): Ledger {
  const db = new Database(path);
  db.defaultSafeIntegers(true);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 10000');
  createSchema(db);
  return new SqlLedger(new SqliteDriver(db));
}
