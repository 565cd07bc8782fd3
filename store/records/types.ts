// The contract read model's store (docs/records.md): every contract's current view, its append-only
// event log and its vote rows, as its workflow wrote them, and the listings read from them. The row
// and write shapes are defined beside the activity that writes them (workflows/activity-interfaces).
import type { ContractRecord, ContractWrite, ContractWriteResult } from '../../workflows/activity-interfaces';
import { isTerminal, type ContractStatus } from '../../workflows/rules/status';

export type { ContractRecord, ContractWrite, ContractWriteResult } from '../../workflows/activity-interfaces';

/** A contract as the listing shows it (docs/records.md). */
export interface ListedRow {
  contractId: string;
  status: string;
  contractCode: string | null;
  createdAt: string;
  /** When its terminal status was written (null while open): closed contracts' order, newest first. */
  closedAt: string | null;
  nextDeadline: string | null;
  quoteCount: number | null;
}

/** A closed contract as the listing shows it. */
export type ClosedContract = ListedRow & { closedAt: string };

/** Where a page of closed contracts starts: after this row in (closedAt, contractId) descending order. */
export interface ClosedPosition {
  closedAt: string;
  contractId: string;
}

/** Where a page of open contracts starts: after this row in (createdAt, contractId) descending order. */
export interface OpenPosition {
  createdAt: string;
  contractId: string;
}

export interface ListQuery<P> {
  statuses: readonly string[];
  contractCodes?: readonly string[];
  limit: number;
  after?: P;
}

export type ClosedQuery = ListQuery<ClosedPosition>;
export type OpenQuery = ListQuery<OpenPosition>;

export interface ContractRecordStore {
  /** Keeps a write whose version is above the stored one, its events replacing the log from `from` on. */
  write(write: ContractWrite): Promise<ContractWriteResult>;
  /** The contract as last written, open or closed; undefined when none was written (or never created). */
  get(contractId: string): Promise<ContractRecord | undefined>;
  /** Open contracts, newest created first, ties by contract id (descending); keyset paging. */
  listOpen(query: OpenQuery): Promise<ListedRow[]>;
  /**
   * Closed contracts, newest closed first, ties by contract id (descending). Keyset paging: a page
   * that starts `after` a row never repeats or skips a row because of an insert in between.
   */
  listClosed(query: ClosedQuery): Promise<ClosedContract[]>;
  close(): Promise<void>;
}

/** A contract's read model at a terminal status: its durable record. */
export function isClosedRecord(record: ContractRecord | undefined): record is ContractRecord {
  return record !== undefined && isTerminal(record.view.status as ContractStatus);
}

/** What the store holds of a contract before a write: its version and how many events. */
export interface StoredHead {
  version: number;
  events: number;
}

/** The compare-and-set of a write against what is stored (both dialects). */
export function judgeWrite(stored: StoredHead | undefined, write: ContractWrite): ContractWriteResult {
  const storedEvents = stored?.events ?? 0;
  if (stored !== undefined && stored.version >= write.version) return { outcome: 'stale', storedEvents };
  if (write.from > storedEvents) return { outcome: 'gap', storedEvents };
  return { outcome: 'written', storedEvents: write.from + write.events.length };
}

/** The view row's columns of a write, in the order of upsertViewSql (both dialects); `closed_at` set once terminal. */
export function viewRowParams(write: ContractWrite): unknown[] {
  const { view } = write;
  return [
    write.contractId,
    write.version,
    view.status,
    view.contractCode,
    view.createdAt,
    isTerminal(view.status) ? new Date().toISOString() : null,
    view.nextDeadline?.at ?? null,
    view.quoteCount,
    write.from + write.events.length,
    JSON.stringify({ view, votes: write.votes, ballotsCast: write.ballotsCast }),
  ];
}

/** The record a view row and its events read back as. */
export function recordOf(
  contractId: string,
  version: number | string,
  body: string,
  events: readonly string[],
): ContractRecord {
  const { view, votes, ballotsCast } = JSON.parse(body) as Omit<ContractRecord, 'contractId' | 'events'>;
  return {
    contractId,
    version: Number(version),
    view,
    votes,
    ballotsCast,
    events: events.map((e) => JSON.parse(e) as ContractRecord['events'][number]),
  };
}
