// The activities the contract workflow calls. Money moves only through `ledger`; every call is
// idempotent by its ledger operation id (`<contractId>:<step>`), so unlimited retries of
// infrastructure errors are safe. Domain errors (InsufficientFunds, ...) are non-retryable failures
// raised by the activities. `panels` seats and closes the Backup Agent panel (also idempotent).
import { proxyActivities } from '@temporalio/workflow';
import type { DrawActivities } from '../../activities/draw-activities';
import type { LedgerActivities } from '../../activities/ledger-activities';
import type { PanelActivities } from '../../activities/panel-activities';

const options = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;

export const ledger = proxyActivities<LedgerActivities>(options);
export const panels = proxyActivities<PanelActivities>(options);
export const draws = proxyActivities<DrawActivities>(options);
