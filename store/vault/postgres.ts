// The key vault's PostgreSQL back-end: shared by every API process. Sealing and the vault's rules
// are envelope.ts's; this stores the sealed records (tables `api_vault_keys`, `api_vault_contents`).
import type { PostgresPool } from '../postgres/pool';
import { createTables } from '../postgres/pool';
import type { SealedRecord, VaultRecordId, VaultStorage } from './envelope';
import { EnvelopeKeyVault, checkMasterKey } from './envelope';

const TABLES = { key: 'api_vault_keys', content: 'api_vault_contents' } as const;

const SCHEMA = Object.values(TABLES)
  .map(
    (table) => `CREATE TABLE IF NOT EXISTS ${table} (
  contract_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('materials', 'delivery')),
  format_version INTEGER NOT NULL,
  master_key_id TEXT NOT NULL,
  wrapped_data_key BYTEA NOT NULL,
  sealed_value BYTEA NOT NULL,
  PRIMARY KEY (contract_id, kind)
);`,
  )
  .join('\n');

interface Row {
  format_version: number;
  master_key_id: string;
  wrapped_data_key: Buffer;
  sealed_value: Buffer;
}

class PostgresVaultStorage implements VaultStorage {
  constructor(private readonly pool: PostgresPool) {}

  async insert(id: VaultRecordId, sealed: SealedRecord): Promise<boolean> {
    const inserted = await this.pool.query(
      `INSERT INTO ${TABLES[id.record]} (contract_id, kind, format_version, master_key_id, wrapped_data_key, sealed_value)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [
        id.contractId,
        id.kind,
        sealed.formatVersion,
        sealed.masterKeyId,
        sealed.wrappedDataKey,
        sealed.sealedValue,
      ],
    );
    return inserted.rowCount === 1;
  }

  async find(id: VaultRecordId): Promise<SealedRecord | undefined> {
    const { rows } = await this.pool.query<Row>(
      `SELECT format_version, master_key_id, wrapped_data_key, sealed_value FROM ${TABLES[id.record]}
       WHERE contract_id = $1 AND kind = $2`,
      [id.contractId, id.kind],
    );
    const row = rows[0];
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

/** The vault on PostgreSQL. */
export class PostgresKeyVault extends EnvelopeKeyVault {
  private constructor(pool: PostgresPool, masterKey: Uint8Array) {
    super(new PostgresVaultStorage(pool), masterKey);
  }

  /** Creates the tables if missing. The pool stays its opener's to close. */
  static async open(pool: PostgresPool, masterKey: Uint8Array): Promise<PostgresKeyVault> {
    checkMasterKey(masterKey);
    await createTables(pool, SCHEMA);
    return new PostgresKeyVault(pool, masterKey);
  }
}
