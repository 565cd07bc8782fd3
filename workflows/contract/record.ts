// The contract's durable record (docs/records.md): at a terminal status the workflow hands its view,
// event log and vote rows to the database, so reads outlive the workflow's retention or deletion.
// A local activity writes it, naming its writer (this run, the task's time): a
// task retried after writing it decides again and rewrites it; the store takes that rewrite from the
// same run only, and only a later one (activities/records/types.ts).
import { workflowInfo } from '@temporalio/workflow';
import type { VotesResult } from '../definitions';
import { local } from './activity-proxies';
import type { Contract } from './state';

/** The votes query's and the record's answer: sealed while a drawn panel votes; no rows without a panel. */
export function votesResult(c: Contract): VotesResult {
  if (c.voteRows !== null) return { sealed: false, rows: [...c.voteRows] };
  return c.panel === null && !c.panelDue ? { sealed: false, rows: [] } : { sealed: true };
}

export async function writeRecord(c: Contract): Promise<void> {
  await local.records.recordContract({
    contractId: c.contractId,
    view: c.view(),
    events: [...c.events],
    votes: votesResult(c),
    writer: { runId: workflowInfo().runId, at: Date.now() },
  });
}
