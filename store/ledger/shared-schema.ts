// DDL that the SQLite and PostgreSQL stores share word for word. Each store writes out around these
// fragments what its dialect needs: integer column types, row ids, overflow checks and triggers.

/** The columns of ledger_operations. */
export const OPERATION_COLUMNS = `  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('deposit', 'withdraw', 'transfer', 'hold', 'resolve', 'void', 'mint')),
  body TEXT NOT NULL,
  created_at TEXT NOT NULL`;

const PARTY_COLUMNS = (opReference: string) => `  op_id TEXT NOT NULL${opReference},
  idx INTEGER NOT NULL CHECK (idx >= 0),
  type TEXT NOT NULL CHECK (type IN ('posted', 'pending', 'post', 'void')),
  asset TEXT NOT NULL,
  debit_owner TEXT NOT NULL,
  credit_owner TEXT,`;

/** The ledger_transfers columns between `seq` and `amount`, the operation a foreign key. */
export const TRANSFER_PARTY_COLUMNS = PARTY_COLUMNS(' REFERENCES ledger_operations (id)');

/**
 * The same without the foreign key: the PostgreSQL store checks that the operation and both accounts
 * exist in the trigger that applies a row to the balances, instead of three referential-integrity
 * triggers per row.
 */
export const TRANSFER_PARTY_COLUMNS_UNKEYED = PARTY_COLUMNS('');

/**
 * The ledger_transfers columns and constraints after `amount`, up to the end of the table. Uniqueness
 * comes from the indexes below: few, since each one is written at every posting (on SQLite, a page
 * synced per commit; on PostgreSQL, server time per row).
 */
const HOLD_COLUMNS = (accountKeys: string) => `  hold_id TEXT,
  closes_hold TEXT,
  hold_kind TEXT CHECK (hold_kind IN ('escrow', 'stake', 'dispute-bond', 'ba-bond', 'eligibility')),
  contract_id TEXT,
  created_at TEXT NOT NULL,${accountKeys}
  CHECK (CASE type
    WHEN 'posted' THEN credit_owner IS NOT NULL AND credit_owner <> debit_owner
      AND hold_id IS NULL AND closes_hold IS NULL AND hold_kind IS NULL
    WHEN 'pending' THEN credit_owner IS NULL AND debit_owner <> 'mint' AND hold_id = op_id AND idx = 0
      AND closes_hold IS NULL AND hold_kind IS NOT NULL
    WHEN 'post' THEN credit_owner IS NOT NULL AND credit_owner <> debit_owner AND credit_owner <> 'mint'
      AND hold_id IS NOT NULL AND hold_kind IS NOT NULL
    WHEN 'void' THEN credit_owner IS NULL AND hold_id IS NOT NULL AND hold_kind IS NOT NULL
  END),
  CHECK (closes_hold IS NULL OR closes_hold = hold_id)`;

export const TRANSFER_HOLD_COLUMNS = HOLD_COLUMNS(`
  FOREIGN KEY (debit_owner, asset) REFERENCES ledger_accounts (owner, asset),
  FOREIGN KEY (credit_owner, asset) REFERENCES ledger_accounts (owner, asset),`);

/** The same without the accounts' foreign keys (see TRANSFER_PARTY_COLUMNS_UNKEYED). */
export const TRANSFER_HOLD_COLUMNS_UNKEYED = HOLD_COLUMNS('');

/** The open holds of an owner by kind (holdsOf, eligibleAgents). */
export const HOLDER_INDEX = `CREATE INDEX IF NOT EXISTS ledger_transfers_holder ON ledger_transfers (debit_owner, hold_kind) WHERE type = 'pending';`;

/** A hold, its resolution rows and its one closing row (unique: a hold closes once), in one tree. */
export const HOLD_INDEX = `CREATE UNIQUE INDEX IF NOT EXISTS ledger_transfers_hold ON ledger_transfers (hold_id, closes_hold)
  WHERE hold_id IS NOT NULL;`;

/** The rows of a contract (postingsByContract, holdsByContract). */
export const CONTRACT_INDEX = `CREATE INDEX IF NOT EXISTS ledger_transfers_contract ON ledger_transfers (contract_id) WHERE contract_id IS NOT NULL;`;
