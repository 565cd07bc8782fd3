// A contract's durable record (docs/records.md) and the activity that writes it
// (activities/record-activities.ts): what the API reads once its workflow is closed or gone. Written
// once, when the contract reaches a terminal status; never changed afterwards.
import type { ContractView, VotesResult } from '../definitions';
import type { ContractEvent } from '../rules/events';

export interface ContractRecord {
  contractId: string;
  /** The workflow's full view (the API redacts it per caller exactly as it does a live one). */
  view: ContractView;
  /** The content-free event log, successCriteria included. */
  events: ContractEvent[];
  votes: VotesResult;
  /** Who wrote it, when a local activity did (workflows/contract/record.ts); absent on older records. */
  writer?: RecordWriter;
}

/**
 * A workflow run and its clock when it wrote the record. A local activity's record is durable before
 * the workflow task that wrote it is: when that task fails, the run's next task (later, by the
 * workflow's clock) decides again and writes its own record, which replaces the first; an earlier
 * task's late write never replaces a later one. Another run (a reset, a reused id) is refused.
 */
export interface RecordWriter {
  runId: string;
  /** The workflow's clock (ms since the epoch) at the write: later for each retried task. */
  at: number;
}

/**
 * `saved` the first time, `unchanged` for a repeat of the same record (an activity retry) or an
 * earlier task's late write, `rewritten` for a later task of the same run (`RecordWriter`).
 */
export type SaveOutcome = 'saved' | 'unchanged' | 'rewritten';

export interface RecordActivities {
  recordContract(record: ContractRecord): Promise<SaveOutcome>;
}
