// Opens the contract read model beside the ledger: the same SQLite file, or the same PostgreSQL
// database and schema (docs/records.md).
import { openPostgresPool } from '../postgres/pool';
import type { LedgerConfig } from '../ledger';
import { openPostgresRecords } from './postgres-store';
import { openSqliteRecords } from './sqlite-store';
import type { ContractRecordStore } from './types';

export type {
  ClosedContract,
  ClosedPosition,
  ClosedQuery,
  ContractRecord,
  ContractRecordStore,
  ContractWrite,
  ContractWriteResult,
  ListedRow,
  OpenPosition,
  OpenQuery,
} from './types';
export { isClosedRecord } from './types';

export async function openRecords(config: LedgerConfig): Promise<ContractRecordStore> {
  if (config.kind === 'sqlite') return openSqliteRecords(config.path);
  const pool = await openPostgresPool({
    connectionString: config.connectionString,
    ...(config.schema === undefined ? {} : { schema: config.schema }),
    poolSize: 2,
  });
  try {
    return await openPostgresRecords(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
}
