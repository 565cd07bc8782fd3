// The outcome log (docs/reputation.md §1) beside the contract records: the ledger's SQLite file, or
// the ledger's PostgreSQL database and schema. Append-only and hash-chained: one transaction per
// ending appends every party's record, under the chain's lock (SQLite's single writer, taken with
// BEGIN IMMEDIATE; a PostgreSQL advisory lock), and a party's record is written once — the unique
// key (contract, milestone, role, party) makes a retried or replayed append add nothing.
import { postgresDb, type SqlDb } from '../agent-feed/sql';
import { openSqliteFile } from '../sqlite/open';
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

/** The records an ending adds after `head`: one per party not already in `written` (role + party). */
export function planAppend(
  { contractId, milestoneIndex, entries }: OutcomeAppend,
  head: ChainHead | null,
  written: ReadonlySet<string>,
): ChainedOutcome[] {
  const planned: ChainedOutcome[] = [];
  let previous = head;
  for (const entry of entries) {
    if (written.has(`${entry.role} ${entry.party}`)) continue;
    const record = chainRecord({ ...entry, contractId, milestoneIndex }, previous);
    planned.push(record);
    previous = { sequence: record.sequence, hash: record.hash };
  }
  return planned;
}

const INSERT = `INSERT INTO outcome_log (sequence, contract_id, milestone_key, role, party, hash, body)
  VALUES (?, ?, ?, ?, ?, ?, ?)`;
const WRITTEN = 'SELECT role, party FROM outcome_log WHERE contract_id = ? AND milestone_key = ?';
const HEAD = 'SELECT sequence, hash FROM outcome_log ORDER BY sequence DESC LIMIT 1';
const PAGE = 'SELECT body FROM outcome_log WHERE sequence > ? ORDER BY sequence LIMIT ?';
const PARTY_PAGE = 'SELECT body FROM outcome_log WHERE party = ? AND sequence > ? ORDER BY sequence LIMIT ?';

const insertValues = (r: ChainedOutcome) => [
  r.sequence,
  r.contractId,
  r.milestoneIndex ?? WHOLE_CONTRACT,
  r.role,
  r.party,
  r.hash,
  JSON.stringify(r),
];
const keysOf = (rows: { role: string; party: string }[]) => new Set(rows.map((r) => `${r.role} ${r.party}`));
const headFrom = (row: HeadRow | undefined): ChainHead | null =>
  row === undefined ? null : { sequence: Number(row.sequence), hash: row.hash };
const parse = (rows: Row[]) => rows.map((r) => JSON.parse(r.body) as ChainedOutcome);

/**
 * SQLite: the whole append is one synchronous BEGIN IMMEDIATE transaction (better-sqlite3), so no
 * other statement of this process runs inside it and another process waits for the file's write lock.
 */
export function openSqliteOutcomeLog(path: string): OutcomeLog {
  const db = openSqliteFile(path);
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  for (const statement of ddl('sqlite')) db.exec(statement);
  const insert = db.prepare(INSERT);
  const written = db.prepare<[string, number], { role: string; party: string }>(WRITTEN);
  const head = db.prepare<[], HeadRow>(HEAD);
  const page = db.prepare<[number, number], Row>(PAGE);
  const partyPage = db.prepare<[string, number, number], Row>(PARTY_PAGE);
  const append = db.transaction((a: OutcomeAppend): OutcomeAppendResult => {
    const before = headFrom(head.get());
    const planned = planAppend(
      a,
      before,
      keysOf(written.all(a.contractId, a.milestoneIndex ?? WHOLE_CONTRACT)),
    );
    for (const r of planned) insert.run(...insertValues(r));
    return { appended: planned.length, head: planned.at(-1)?.sequence ?? before?.sequence ?? 0 };
  });
  return {
    append: async (a) => append.immediate(a),
    list: async (after, limit) => parse(page.all(after, limit)),
    listByParty: async (party, after, limit) => parse(partyPage.all(party, after, limit)),
    head: async () => headFrom(head.get()),
    close: async () => {
      db.close();
    },
  };
}

/** PostgreSQL: one transaction per append under the chain's advisory lock. */
export function postgresOutcomeLog(db: SqlDb): OutcomeLog {
  return {
    append: (a) =>
      db.tx(async (q) => {
        const before = headFrom((await q.all<HeadRow>(HEAD))[0]);
        const rows = await q.all<{ role: string; party: string }>(WRITTEN, [
          a.contractId,
          a.milestoneIndex ?? WHOLE_CONTRACT,
        ]);
        const planned = planAppend(a, before, keysOf(rows));
        for (const r of planned) await q.run(INSERT, insertValues(r));
        return { appended: planned.length, head: planned.at(-1)?.sequence ?? before?.sequence ?? 0 };
      }, CHAIN_LOCK_KEY),
    list: async (after, limit) => parse(await db.all<Row>(PAGE, [after, limit])),
    listByParty: async (party, after, limit) => parse(await db.all<Row>(PARTY_PAGE, [party, after, limit])),
    head: async () => headFrom((await db.all<HeadRow>(HEAD))[0]),
    close: () => db.close(),
  };
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
    return postgresOutcomeLog(postgresDb(pool, true));
  } catch (error) {
    await pool.end();
    throw error;
  }
}
