// The activity that writes a terminal contract's durable record (docs/records.md). Idempotent by
// contract id: a retry with the same record is a no-op, a different record a non-retryable failure.
import { ApplicationFailure } from '@temporalio/common';
import type { RecordActivities } from '../workflows/activity-interfaces';
import { RecordConflict, type ContractRecord, type ContractRecordStore, type SaveOutcome } from './records';

export interface RecordActivityDeps {
  records: ContractRecordStore;
}

export function createRecordActivities({ records }: RecordActivityDeps): RecordActivities {
  return {
    async recordContract(record: ContractRecord): Promise<SaveOutcome> {
      try {
        return await records.save(record);
      } catch (error) {
        if (error instanceof RecordConflict) {
          throw ApplicationFailure.nonRetryable(error.message, 'RecordConflict');
        }
        throw error;
      }
    },
  };
}
