// Opens a ledger store from configuration: the embedded SQLite file or a PostgreSQL database.
import { openPostgresLedger } from './postgres-store';
import { openSqliteLedger } from './sqlite-store';
import type { Ledger } from './types';

export type LedgerConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; connectionString: string; schema?: string; poolSize?: number };

export async function openLedger(config: LedgerConfig): Promise<Ledger> {
  switch (config.kind) {
    case 'sqlite':
      return openSqliteLedger(config.path);
    case 'postgres':
      return openPostgresLedger(config);
  }
}
