// The contract read model (docs/records.md) and the activity that writes it
// (activities/record-activities.ts): what the API reads of every contract, open or closed. The
// workflow writes it at each change (workflows/contract/read-model.ts); the write of a terminal
// status is the durable record that outlives the workflow's retention.
import type { ContractView, VotesResult } from '../definitions';
import type { Address } from '../rules/address';
import type { ContractEvent } from '../rules/events';

/**
 * One write of a contract's read model: its state now, and its event log from `from` on. The store
 * keeps it only when `version` is above the stored one (compare-and-set), so a view never goes back.
 */
export interface ContractWrite {
  contractId: string;
  /** Computed deterministically by the workflow: higher for every later write, and for every write of a retried task. */
  version: number;
  /** The workflow's full view (the API redacts it per caller). */
  view: ContractView;
  votes: VotesResult;
  /** The current panel's Backup Agents whose ballot is in: for next actions only, never answered to a caller. */
  ballotsCast: Address[];
  /** The sequence number (0-based) of `events[0]`: the log from here on replaces what the store has. */
  from: number;
  events: ContractEvent[];
}

/**
 * `written`; `stale` when the store holds a higher version; `gap` when the store holds fewer events
 * than `from` (a lost or rebuilt read model): nothing written, the workflow writes again from `storedEvents`.
 */
export interface ContractWriteResult {
  outcome: 'written' | 'stale' | 'gap';
  storedEvents: number;
}

/** A contract as the read model holds it. */
export interface ContractRecord {
  contractId: string;
  version: number;
  view: ContractView;
  /** The content-free event log, successCriteria included. */
  events: ContractEvent[];
  votes: VotesResult;
  ballotsCast: Address[];
}

export interface RecordActivities {
  writeContract(write: ContractWrite): Promise<ContractWriteResult>;
}
