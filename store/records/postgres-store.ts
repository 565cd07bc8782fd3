// The contract read model in the ledger's PostgreSQL database and schema (a pool of its own). A write
// is one transaction: the view row is created if missing and locked, its version compared, the log's
// tail replaced, the row updated; concurrent writes of one contract queue on the row's lock.
import type { PostgresPool } from '../postgres/pool';
import { createTables } from '../postgres/pool';
import {
  closedFromRow,
  listedFromRow,
  listingSql,
  postgresDialect,
  readModelTables,
  upsertViewSql,
} from './listing';
import type { ListedDbRow } from './listing';
import type { ContractRecordStore, ContractWrite, ContractWriteResult, StoredHead } from './types';
import { judgeWrite, recordOf, viewRowParams } from './types';

async function writeIn(pool: PostgresPool, w: ContractWrite): Promise<ContractWriteResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // A placeholder (version -1, no events) makes the row lockable on a contract's first write.
    await client.query(
      `INSERT INTO contract_views (contract_id, version, status, created_at, event_count, body)
       VALUES ($1, -1, '', '', 0, '') ON CONFLICT (contract_id) DO NOTHING`,
      [w.contractId],
    );
    const { rows } = await client.query<{ version: string; events: number }>(
      'SELECT version, event_count AS events FROM contract_views WHERE contract_id = $1 FOR UPDATE',
      [w.contractId],
    );
    const stored: StoredHead | undefined =
      rows[0] === undefined || Number(rows[0].version) < 0
        ? undefined
        : { version: Number(rows[0].version), events: rows[0].events };
    const result = judgeWrite(stored, w);
    if (result.outcome !== 'written') {
      await client.query('ROLLBACK');
      return result;
    }
    await client.query('DELETE FROM contract_view_events WHERE contract_id = $1 AND seq >= $2', [
      w.contractId,
      w.from,
    ]);
    for (const [i, e] of w.events.entries()) {
      await client.query('INSERT INTO contract_view_events (contract_id, seq, body) VALUES ($1, $2, $3)', [
        w.contractId,
        w.from + i,
        JSON.stringify(e),
      ]);
    }
    await client.query(upsertViewSql(postgresDialect), viewRowParams(w));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export async function openPostgresRecords(pool: PostgresPool): Promise<ContractRecordStore> {
  await createTables(pool, readModelTables(postgresDialect));
  const list = async (order: 'created_at' | 'closed_at', query: Parameters<typeof listingSql>[2]) => {
    const { sql, params } = listingSql(postgresDialect, order, query);
    return (await pool.query<ListedDbRow>(sql, params)).rows;
  };
  return {
    write: (w) => writeIn(pool, w),
    async get(contractId) {
      // One statement: the view and the log of the same write (one snapshot).
      const { rows } = await pool.query<{ version: string; body: string; events: string[] | null }>(
        `SELECT v.version, v.body,
           (SELECT array_agg(e.body ORDER BY e.seq) FROM contract_view_events e WHERE e.contract_id = v.contract_id) AS events
         FROM contract_views v WHERE v.contract_id = $1 AND v.version >= 0`,
        [contractId],
      );
      const row = rows[0];
      return row === undefined ? undefined : recordOf(contractId, row.version, row.body, row.events ?? []);
    },
    async listOpen({ after, ...query }) {
      const page = await list('created_at', {
        ...query,
        ...(after === undefined ? {} : { after: { at: after.createdAt, contractId: after.contractId } }),
      });
      return page.map(listedFromRow);
    },
    async listClosed({ after, ...query }) {
      const page = await list('closed_at', {
        ...query,
        ...(after === undefined ? {} : { after: { at: after.closedAt, contractId: after.contractId } }),
      });
      return page.map(closedFromRow);
    },
    close: () => pool.end(),
  };
}
