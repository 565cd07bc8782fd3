// A contract's durable record (docs/records.md): what the API reads once its workflow is closed or
// gone. Written once, when the contract reaches a terminal status; never changed afterwards.
import type { ContractView, VotesResult } from '../../workflows/definitions';
import type { ContractEvent } from '../../workflows/rules/events';

export interface ContractRecord {
  contractId: string;
  /** The workflow's full view (the API redacts it per caller exactly as it does a live one). */
  view: ContractView;
  /** The content-free event log, successCriteria included. */
  events: ContractEvent[];
  votes: VotesResult;
}

/** `saved` the first time, `unchanged` for a repeat of the same record (an activity retry). */
export type SaveOutcome = 'saved' | 'unchanged';

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

/** Judges an insert that found a row already there: same body is a retry, another is a conflict. */
export function judgeExisting(record: ContractRecord, storedBody: string): SaveOutcome {
  if (storedBody !== encodeRecord(record)) throw new RecordConflict(record.contractId);
  return 'unchanged';
}
