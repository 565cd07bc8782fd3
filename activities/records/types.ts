// The store of contracts' durable records (docs/records.md): its listing, its rows and its conflicts.
// The record itself is defined beside the activity that writes it (workflows/activity-interfaces).
import type { ContractRecord, SaveOutcome } from '../../workflows/activity-interfaces';

export type { ContractRecord, RecordWriter, SaveOutcome } from '../../workflows/activity-interfaces';

/** A closed contract as the listing shows it (docs/records.md). */
export interface ClosedContract {
  contractId: string;
  status: string;
  contractCode: string | null;
  createdAt: string;
  /** When its record was written: the listing's order, newest first. */
  closedAt: string;
  quoteCount: number | null;
}

/** Where a page of closed contracts starts: after this row in (closedAt, contractId) descending order. */
export interface ClosedPosition {
  closedAt: string;
  contractId: string;
}

export interface ClosedQuery {
  statuses?: readonly string[];
  contractCodes?: readonly string[];
  limit: number;
  after?: ClosedPosition;
}

export interface ContractRecordStore {
  /** Stores a record; a different record under the same contract id is refused (RecordConflict). */
  save(record: ContractRecord): Promise<SaveOutcome>;
  get(contractId: string): Promise<ContractRecord | undefined>;
  /**
   * Closed contracts, newest closed first, ties by contract id (descending). Keyset paging: a page
   * that starts `after` a row never repeats or skips a row because of an insert in between.
   */
  listClosed(query: ClosedQuery): Promise<ClosedContract[]>;
  close(): Promise<void>;
}

export class RecordConflict extends Error {
  constructor(readonly contractId: string) {
    super(`contract ${contractId} already has a different record`);
    this.name = 'RecordConflict';
  }
}

/** The table both dialects share word for word. */
export const RECORD_TABLE = `CREATE TABLE IF NOT EXISTS contract_records (
  contract_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  body TEXT NOT NULL,
  recorded_at TEXT NOT NULL
)`;

export function encodeRecord(record: ContractRecord): string {
  return JSON.stringify(record);
}

/** What a store does with one contract's row (each dialect's statements). */
export interface RecordRow {
  /** Inserts the row unless one exists; true when it inserted. */
  insert(status: string, body: string): Promise<boolean>;
  /** The stored body (the row exists). */
  body(): Promise<string>;
  /** Replaces the body if it is still `stored`; true when it did. */
  replace(stored: string, status: string, body: string): Promise<boolean>;
}

/** Judges a row already there: same body is a retry, a later task of the same run replaces it. */
function judgeExisting(record: ContractRecord, storedBody: string): 'unchanged' | 'rewrite' {
  if (storedBody === encodeRecord(record)) return 'unchanged';
  const stored = (JSON.parse(storedBody) as ContractRecord).writer;
  const writer = record.writer;
  if (
    writer === undefined ||
    stored === undefined ||
    writer.runId !== stored.runId ||
    writer.at === stored.at
  )
    throw new RecordConflict(record.contractId);
  return writer.at > stored.at ? 'rewrite' : 'unchanged';
}

/** Saves a record through a dialect's row statements (RecordConflict for a different record). */
export async function saveRecord(record: ContractRecord, row: RecordRow): Promise<SaveOutcome> {
  const body = encodeRecord(record);
  const status = record.view.status;
  if (await row.insert(status, body)) return 'saved';
  // Compare-and-set: a concurrent rewrite in between is judged again.
  for (;;) {
    const stored = await row.body();
    if (judgeExisting(record, stored) === 'unchanged') return 'unchanged';
    if (await row.replace(stored, status, body)) return 'rewritten';
  }
}
