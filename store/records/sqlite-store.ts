// The contract read model in the ledger's SQLite file (a connection of its own, WAL like the ledger's).
// A write is one synchronous transaction: compare the version, replace the log's tail, upsert the view.
import Database from 'better-sqlite3';
import {
  closedFromRow,
  listedFromRow,
  listingSql,
  readModelTables,
  sqliteDialect,
  upsertViewSql,
} from './listing';
import type { ListedDbRow } from './listing';
import type { ContractRecordStore, ContractWrite, ContractWriteResult, StoredHead } from './types';
import { judgeWrite, recordOf, viewRowParams } from './types';

export function openSqliteRecords(path: string): ContractRecordStore {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  db.exec(readModelTables(sqliteDialect));
  const head = db.prepare<[string], StoredHead>(
    'SELECT version, event_count AS events FROM contract_views WHERE contract_id = ?',
  );
  const dropTail = db.prepare('DELETE FROM contract_view_events WHERE contract_id = ? AND seq >= ?');
  const insertEvent = db.prepare(
    'INSERT INTO contract_view_events (contract_id, seq, body) VALUES (?, ?, ?)',
  );
  const upsert = db.prepare(upsertViewSql(sqliteDialect));
  const selectView = db.prepare<[string], { version: number; body: string }>(
    'SELECT version, body FROM contract_views WHERE contract_id = ?',
  );
  const selectEvents = db
    .prepare<[string], { body: string }>(
      'SELECT body FROM contract_view_events WHERE contract_id = ? ORDER BY seq',
    )
    .pluck();
  // Read as one snapshot: the view and the log of the same write.
  const read = db.transaction((contractId: string) => {
    const row = selectView.get(contractId);
    if (row === undefined) return undefined;
    return recordOf(contractId, row.version, row.body, selectEvents.all(contractId) as unknown as string[]);
  });
  const write = db.transaction((w: ContractWrite): ContractWriteResult => {
    const result = judgeWrite(head.get(w.contractId), w);
    if (result.outcome !== 'written') return result;
    dropTail.run(w.contractId, w.from);
    w.events.forEach((e, i) => insertEvent.run(w.contractId, w.from + i, JSON.stringify(e)));
    upsert.run(...viewRowParams(w));
    return result;
  });
  const list = (order: 'created_at' | 'closed_at', query: Parameters<typeof listingSql>[2]) => {
    const { sql, params } = listingSql(sqliteDialect, order, query);
    return db.prepare<unknown[], ListedDbRow>(sql).all(...params);
  };
  return {
    // async: an error is a rejected promise, as on PostgreSQL, never a synchronous throw.
    write: async (w) => write.immediate(w),
    get: async (contractId) => read(contractId),
    async listOpen({ after, ...query }) {
      const page = list('created_at', {
        ...query,
        ...(after === undefined ? {} : { after: { at: after.createdAt, contractId: after.contractId } }),
      });
      return page.map(listedFromRow);
    },
    async listClosed({ after, ...query }) {
      const page = list('closed_at', {
        ...query,
        ...(after === undefined ? {} : { after: { at: after.closedAt, contractId: after.contractId } }),
      });
      return page.map(closedFromRow);
    },
    async close() {
      db.close();
    },
  };
}
