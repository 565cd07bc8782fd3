// Every activity the contract worker runs, composed from their factories.
import { createDrawActivities } from './draw-activities';
import type { Ledger } from './ledger';
import { createLedgerActivities } from './ledger-activities';
import { createOperatorActivities } from './operator-activities';
import { createPanelActivities } from './panel-activities';
import type { ContractRecordStore } from './records';
import { createRecordActivities } from './record-activities';
import { createScoringActivities } from './scoring-activities';

export interface ActivityDeps {
  ledger: Ledger;
  /** Where terminal contracts' records go (docs/records.md). */
  records: ContractRecordStore;
}

export function createActivities({ ledger, records }: ActivityDeps) {
  return {
    ...createLedgerActivities({ ledger }),
    ...createPanelActivities({ ledger }),
    ...createScoringActivities(),
    ...createRecordActivities({ records }),
    ...createDrawActivities(),
    ...createOperatorActivities({ ledger, records }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
