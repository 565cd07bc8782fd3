// The activities the contract workflow calls. Money moves only here; every call is idempotent by its
// ledger operation id (`<contractId>:<step>`), so unlimited retries of infrastructure errors are safe.
// Domain errors (InsufficientFunds, ...) are non-retryable failures raised by the activities.
import { proxyActivities } from '@temporalio/workflow';
import type { LedgerActivities } from '../../activities/ledger-activities';

export const ledger = proxyActivities<LedgerActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});
