// The data directory (OPENCONTRACT_DATA_DIR, default `.data/` in the project) and the name of every file the
// service keeps there: each path is made here, so the names are written once (docs/operations.md "Backups").
import { join, resolve } from 'node:path';

export const DATA_FILES = {
  /** The SQLite ledger, and beside it the contract records (OPENCONTRACT_LEDGER unset). */
  ledger: 'ledger.sqlite',
  /** The embedded default's generated secrets (service/settings.ts), mode 0600. */
  secrets: 'secrets.json',
  /** The embedded dev server's persistence, and its log. */
  temporal: 'temporal.sqlite',
  temporalLog: 'temporal.log',
  /** The API's stores on a SQLite ledger (store/index.ts); on PostgreSQL they are tables beside the ledger. */
  vault: 'vault.sqlite',
  nonces: 'nonces.sqlite',
  idempotency: 'idempotency.sqlite',
  payouts: 'payouts.sqlite',
  feed: 'feed.sqlite',
} as const;

export type DataFile = keyof typeof DATA_FILES;

const DEFAULT_DATA_DIR = join(__dirname, '..', '.data');

/** OPENCONTRACT_DATA_DIR as an absolute path, or the project's `.data/`. */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.OPENCONTRACT_DATA_DIR?.trim() || DEFAULT_DATA_DIR);
}

export function dataFile(dataDir: string, file: DataFile): string {
  return join(dataDir, DATA_FILES[file]);
}
