// The contract's durable record (docs/records.md): at a terminal status the workflow hands its view,
// event log and vote rows to the database, so reads outlive the workflow's retention or deletion.
import { patched, proxyActivities } from '@temporalio/workflow';
import type { RecordActivities } from '../../activities/record-activities';
import type { VotesResult } from '../definitions';
import type { Contract } from './state';

/** patched() id of the record write: contracts that closed before it have no record. */
export const RECORD_PATCH = 'contract-record';

const records = proxyActivities<RecordActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** The votes query's answer: sealed until the tally. */
export function votesResult(c: Contract): VotesResult {
  return c.voteRows === null ? { sealed: true } : { sealed: false, rows: c.voteRows };
}

export async function writeRecord(c: Contract): Promise<void> {
  if (!patched(RECORD_PATCH)) return;
  await records.recordContract({
    contractId: c.contractId,
    view: c.view(),
    events: c.events,
    votes: votesResult(c),
  });
}
