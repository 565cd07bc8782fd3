// Opens a ledger store from configuration: the embedded SQLite file or a PostgreSQL database.
import { openPostgresLedger } from './postgres-store';
import { openSqliteLedger } from './sqlite-store';
import { openThreadLedger } from './thread-ledger';
import type { Ledger } from './types';

export type LedgerConfig =
  /**
   * `thread` (default true): the store runs on a worker thread of its own (thread-ledger.ts), so its
   * synchronous commits never block the process's event loop; false runs it on the caller's thread.
   */
  | { kind: 'sqlite'; path: string; thread?: boolean }
  | { kind: 'postgres'; connectionString: string; schema?: string; poolSize?: number };

export async function openLedger(config: LedgerConfig): Promise<Ledger> {
  switch (config.kind) {
    case 'sqlite':
      return config.thread === false ? openSqliteLedger(config.path) : openThreadLedger(config.path);
    case 'postgres':
      return openPostgresLedger(config);
  }
}
