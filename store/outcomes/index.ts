// The outcome log (docs/reputation.md §1) beside the contract records: the ledger's SQLite file, or
// the ledger's PostgreSQL database and schema. Append-only and hash-chained: one transaction per
// ending appends every party's record, under the chain's lock (SQLite's single writer, taken with
// BEGIN IMMEDIATE; a PostgreSQL advisory lock), and a party's record is written once — the unique
// key (contract, milestone, role, party) makes a retried or replayed append add nothing.
import { postgresDb, sqliteDb, type SqlDb, type SqlRunner } from '../agent-feed/sql';
import { createTables, openPostgresPool } from '../postgres/pool';
import type { OutcomeAppend, OutcomeAppendResult } from '../../workflows/activity-interfaces';
import { chainRecord, type ChainedOutcome } from '../../workflows/rules/outcomes';

/** Arbitrary constant: serializes outcome appends on PostgreSQL. */
const CHAIN_LOCK_KEY = 4_242_161;

/** A milestone index, or this for the whole contract (a NULL would not be unique). */
const WHOLE_CONTRACT = -1;

export interface ChainHead {
  sequence: number;
  hash: string;
}

export interface OutcomeLog {
  /** Appends an ending's records (each party's once); safe to repeat. */
  append(append: OutcomeAppend): Promise<OutcomeAppendResult>;
  /** Records after `after` (a sequence), in order, at most `limit`. */
  list(after: number, limit: number): Promise<ChainedOutcome[]>;
  /** A party's records after `after`, in order. */
  listByParty(party: string, after: number, limit: number): Promise<ChainedOutcome[]>;
  /** The last record's sequence and hash; null while the log is empty. */
  head(): Promise<ChainHead | null>;
  close(): Promise<void>;
}

function ddl(dialect: SqlDb['dialect']): string[] {
  const seq = dialect === 'sqlite' ? 'INTEGER' : 'BIGINT';
  return [
    `CREATE TABLE IF NOT EXISTS outcome_log (
      sequence ${seq} PRIMARY KEY,
      contract_id TEXT NOT NULL,
      milestone_key INTEGER NOT NULL,
      role TEXT NOT NULL,
      party TEXT NOT NULL,
      hash TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (contract_id, milestone_key, role, party)
    )`,
    'CREATE INDEX IF NOT EXISTS outcome_log_by_party ON outcome_log (party, sequence)',
  ];
}

interface Row {
  body: string;
}

interface HeadRow {
  sequence: number | string;
  hash: string;
}

async function headOf(q: SqlRunner): Promise<ChainHead | null> {
  const [row] = await q.all<HeadRow>('SELECT sequence, hash FROM outcome_log ORDER BY sequence DESC LIMIT 1');
  return row === undefined ? null : { sequence: Number(row.sequence), hash: row.hash };
}

export function outcomeLogOn(db: SqlDb): OutcomeLog {
  const parse = (rows: Row[]) => rows.map((r) => JSON.parse(r.body) as ChainedOutcome);
  return {
    append: ({ contractId, milestoneIndex, entries }) =>
      db.tx(async (q) => {
        let head = await headOf(q);
        let appended = 0;
        const milestoneKey = milestoneIndex ?? WHOLE_CONTRACT;
        for (const entry of entries) {
          const existing = await q.all(
            `SELECT 1 AS one FROM outcome_log
             WHERE contract_id = ? AND milestone_key = ? AND role = ? AND party = ?`,
            [contractId, milestoneKey, entry.role, entry.party],
          );
          if (existing.length > 0) continue;
          const record = chainRecord({ ...entry, contractId, milestoneIndex }, head);
          await q.run(
            `INSERT INTO outcome_log (sequence, contract_id, milestone_key, role, party, hash, body)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
            [
              record.sequence,
              contractId,
              milestoneKey,
              entry.role,
              entry.party,
              record.hash,
              JSON.stringify(record),
            ],
          );
          head = { sequence: record.sequence, hash: record.hash };
          appended++;
        }
        return { appended, head: head?.sequence ?? 0 };
      }, CHAIN_LOCK_KEY),
    list: async (after, limit) =>
      parse(
        await db.all<Row>('SELECT body FROM outcome_log WHERE sequence > ? ORDER BY sequence LIMIT ?', [
          after,
          limit,
        ]),
      ),
    listByParty: async (party, after, limit) =>
      parse(
        await db.all<Row>(
          'SELECT body FROM outcome_log WHERE party = ? AND sequence > ? ORDER BY sequence LIMIT ?',
          [party, after, limit],
        ),
      ),
    head: () => headOf(db),
    close: () => db.close(),
  };
}

export async function openSqliteOutcomeLog(path: string): Promise<OutcomeLog> {
  const db = sqliteDb(path);
  for (const statement of ddl('sqlite')) await db.run(statement);
  return outcomeLogOn(db);
}

/** Opens the log beside the contract records: the ledger's SQLite file, or its PostgreSQL schema. */
export async function openOutcomeLog(
  config: { kind: 'sqlite'; path: string } | { kind: 'postgres'; connectionString: string; schema?: string },
): Promise<OutcomeLog> {
  if (config.kind === 'sqlite') return openSqliteOutcomeLog(config.path);
  const pool = await openPostgresPool({
    connectionString: config.connectionString,
    ...(config.schema === undefined ? {} : { schema: config.schema }),
    poolSize: 2,
  });
  try {
    await createTables(pool, ddl('postgres').join(';\n'));
    return outcomeLogOn(postgresDb(pool, true));
  } catch (error) {
    await pool.end();
    throw error;
  }
}
