// Contract records in the ledger's PostgreSQL database and schema (a pool of their own).
import type { PostgresPool } from '../../store/postgres/pool';
import { createTables } from '../../store/postgres/pool';
import { closedFromRow, closedListingSql, postgresDialect, type ClosedRow } from './listing';
import type { ContractRecord, ContractRecordStore } from './types';
import { RECORD_TABLE, saveRecord } from './types';

export async function openPostgresRecords(pool: PostgresPool): Promise<ContractRecordStore> {
  await createTables(pool, `${RECORD_TABLE};\n${postgresDialect.closedIndex}`);
  const select = async (contractId: string) => {
    const { rows } = await pool.query<{ body: string }>(
      'SELECT body FROM contract_records WHERE contract_id = $1',
      [contractId],
    );
    return rows[0]?.body;
  };
  return {
    save(record: ContractRecord) {
      const id = record.contractId;
      return saveRecord(record, {
        insert: async (status, body) => {
          const { rowCount } = await pool.query(
            `INSERT INTO contract_records (contract_id, status, body, recorded_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (contract_id) DO NOTHING`,
            [id, status, body, new Date().toISOString()],
          );
          return rowCount === 1;
        },
        body: async () => (await select(id))!,
        replace: async (stored, status, body) => {
          const { rowCount } = await pool.query(
            'UPDATE contract_records SET status = $1, body = $2 WHERE contract_id = $3 AND body = $4',
            [status, body, id, stored],
          );
          return rowCount === 1;
        },
      });
    },
    async get(contractId) {
      const body = await select(contractId);
      return body === undefined ? undefined : (JSON.parse(body) as ContractRecord);
    },
    async listClosed(query) {
      const { sql, params } = closedListingSql(postgresDialect, query);
      const { rows } = await pool.query<ClosedRow>(sql, params);
      return rows.map(closedFromRow);
    },
    close: () => pool.end(),
  };
}
