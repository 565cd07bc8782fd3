// Opens one of the API's own SQLite files (nonces, idempotency records, key vault).
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/** Creates the parent directory, then opens `path` in WAL mode, waiting up to 5 s on a lock held by another process. */
export function openSqliteFile(path: string): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
