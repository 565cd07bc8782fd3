// Contract records in the ledger's SQLite file (a connection of their own, WAL like the ledger's).
import Database from 'better-sqlite3';
import { closedFromRow, closedListingSql, sqliteDialect, type ClosedRow } from './listing';
import type { ContractRecord, ContractRecordStore, SaveOutcome } from './types';
import { RECORD_TABLE, saveRecord } from './types';

export function openSqliteRecords(path: string): ContractRecordStore {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  db.exec(RECORD_TABLE);
  db.exec(sqliteDialect.closedIndex);
  const insert = db.prepare(
    `INSERT INTO contract_records (contract_id, status, body, recorded_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (contract_id) DO NOTHING`,
  );
  const select = db.prepare<[string], { body: string }>(
    'SELECT body FROM contract_records WHERE contract_id = ?',
  );
  const replace = db.prepare(
    'UPDATE contract_records SET status = ?, body = ? WHERE contract_id = ? AND body = ?',
  );
  return {
    // async: a conflict is a rejected promise, as on PostgreSQL, never a synchronous throw.
    save(record: ContractRecord): Promise<SaveOutcome> {
      const id = record.contractId;
      return saveRecord(record, {
        insert: async (status, body) => insert.run(id, status, body, new Date().toISOString()).changes === 1,
        body: async () => select.get(id)!.body,
        replace: async (stored, status, body) => replace.run(status, body, id, stored).changes === 1,
      });
    },
    async get(contractId) {
      const row = select.get(contractId);
      return row ? (JSON.parse(row.body) as ContractRecord) : undefined;
    },
    async listClosed(query) {
      const { sql, params } = closedListingSql(sqliteDialect, query);
      return db
        .prepare<unknown[], ClosedRow>(sql)
        .all(...params)
        .map(closedFromRow);
    },
    async close() {
      db.close();
    },
  };
}
