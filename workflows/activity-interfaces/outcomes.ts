// The outcome log's append (docs/reputation.md §1; activities/outcome-activities.ts): one call per
// ending of a contract or a milestone, all its parties' records in one transaction.
import type { OutcomeEntry } from '../rules/outcomes';

export interface OutcomeAppend {
  contractId: string;
  milestoneIndex: number | null;
  /** One per party; the log numbers and chains them in this order. */
  entries: OutcomeEntry[];
}

/** How many records this call added: 0 when a retry finds them all written already. */
export interface OutcomeAppendResult {
  appended: number;
  /** The log's last sequence after the call. */
  head: number;
}

export interface OutcomeActivities {
  appendOutcomes(append: OutcomeAppend): Promise<OutcomeAppendResult>;
}
