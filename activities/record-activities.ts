// The activity that writes a contract's read model (docs/records.md): a compare-and-set on the
// workflow's version, so a retry, a late write or an earlier task's write never takes a view back.
import type { RecordActivities } from '../workflows/activity-interfaces';
import type { ContractRecordStore } from '../store/records';

export interface RecordActivityDeps {
  records: ContractRecordStore;
}

export function createRecordActivities({ records }: RecordActivityDeps): RecordActivities {
  return {
    writeContract: (write) => records.write(write),
  };
}
