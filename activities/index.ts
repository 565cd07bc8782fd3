// Every activity the contract worker runs, composed from their factories.
import type { Ledger } from './ledger';
import { createLedgerActivities } from './ledger-activities';
import { createPanelActivities } from './panel-activities';
import { createScoringActivities } from './scoring-activities';

export interface ActivityDeps {
  ledger: Ledger;
}

export function createActivities({ ledger }: ActivityDeps) {
  return {
    ...createLedgerActivities({ ledger }),
    ...createPanelActivities({ ledger }),
    ...createScoringActivities(),
  };
}

export type Activities = ReturnType<typeof createActivities>;
