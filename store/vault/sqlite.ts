// The key vault (docs/protocol.md §9): holds the decryption keys of a contract's Supplementary Materials and
// Delivery, and the delivery's normalized content (docs/protocol.md §10), envelope-encrypted (envelope.ts).
// This module is its public face and the SQLite back-end; postgres.ts is the PostgreSQL one.
import type { SqliteDatabase } from '../sqlite/open';
import { openSqliteFile } from '../sqlite/open';
import type { SealedRecord, VaultRecordId, VaultStorage } from './envelope';
import { EnvelopeKeyVault, checkMasterKey } from './envelope';

export type { KeyKind, KeyVault, SealedRecord, VaultRecordId, VaultStorage } from './envelope';
export { EnvelopeKeyVault, KEY_KINDS, VaultConflictError, VaultDecryptError } from './envelope';

export const MASTER_KEY_SETTING = 'VAULT_MASTER_KEY';

/**
 * Reads the 32-byte master key from its setting: 64 hex digits (optionally `0x`) or base64 /
 * base64url. The error names the setting and never echoes its value.
 */
export function parseMasterKey(setting: string | undefined, settingName = MASTER_KEY_SETTING): Uint8Array {
  const value = setting?.trim() ?? '';
  if (value === '') throw new Error(`${settingName} is not set: give 32 bytes as 64 hex digits or base64`);
  const hex = value.replace(/^0x/i, '');
  const expected = `${settingName} must be 32 bytes given as 64 hex digits or base64`;
  // A 32-byte key in base64 (43-44 characters, or with '=') is all-hex with negligible odds.
  if (/^[0-9a-fA-F]+$/.test(hex)) {
    if (hex.length !== 64) throw new Error(`${expected} (it has ${hex.length} hex digits)`);
    return new Uint8Array(Buffer.from(hex, 'hex'));
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) throw new Error(`${expected} (it is neither hex nor base64)`);
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== 32) throw new Error(`${expected} (it decodes to ${bytes.length} bytes)`);
  return new Uint8Array(bytes);
}

const TABLES = { key: 'vault_keys', content: 'vault_contents' } as const;

interface Row {
  format_version: number;
  master_key_id: string;
  wrapped_data_key: Buffer;
  sealed_value: Buffer;
}

class SqliteVaultStorage implements VaultStorage {
  constructor(private readonly db: SqliteDatabase) {
    // Keys and contents are sealed the same way; they live in two tables of the same shape.
    for (const table of Object.values(TABLES)) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      contract_id TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('materials', 'delivery')),
      format_version INTEGER NOT NULL,
      master_key_id TEXT NOT NULL,
      wrapped_data_key BLOB NOT NULL,
      sealed_value BLOB NOT NULL,
      PRIMARY KEY (contract_id, kind)
    ) WITHOUT ROWID`);
    }
  }

  async insert(id: VaultRecordId, sealed: SealedRecord): Promise<boolean> {
    const inserted = this.db
      .prepare(
        `INSERT INTO ${TABLES[id.record]} (contract_id, kind, format_version, master_key_id, wrapped_data_key, sealed_value)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(
        id.contractId,
        id.kind,
        sealed.formatVersion,
        sealed.masterKeyId,
        sealed.wrappedDataKey,
        sealed.sealedValue,
      );
    return inserted.changes === 1;
  }

  async find(id: VaultRecordId): Promise<SealedRecord | undefined> {
    const row = this.db
      .prepare(
        `SELECT format_version, master_key_id, wrapped_data_key, sealed_value FROM ${TABLES[id.record]}
         WHERE contract_id = ? AND kind = ?`,
      )
      .get(id.contractId, id.kind) as Row | undefined;
    return (
      row && {
        formatVersion: row.format_version,
        masterKeyId: row.master_key_id,
        wrappedDataKey: row.wrapped_data_key,
        sealedValue: row.sealed_value,
      }
    );
  }
}

/** The vault in a SQLite file (tables `vault_keys`, `vault_contents`). */
export class SqliteKeyVault extends EnvelopeKeyVault {
  private readonly db: SqliteDatabase;

  constructor(path: string, masterKey: Uint8Array) {
    checkMasterKey(masterKey);
    const db = openSqliteFile(path);
    super(new SqliteVaultStorage(db), masterKey);
    this.db = db;
  }

  close(): void {
    this.db.close();
  }
}
