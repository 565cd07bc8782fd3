// The activities the contract workflow calls. Money moves only through `ledger`; every call is
// idempotent by its ledger operation id (`<contractId>:<step>`), so unlimited retries of
// infrastructure errors are safe. Domain errors (InsufficientFunds, ...) are non-retryable failures
// raised by the activities. `panels` seats and closes the Backup Agent panel (also idempotent).
//
// On a lean history (lean-history.ts) the writes run as local activities: the same idempotent calls,
// on the worker that runs the workflow task. A local activity is run again only when its workflow
// task fails before completing; the retried task replays the same history and makes the same call,
// which the ledger answers as a replay. Should a retried task refuse the message that locked a hold
// (its deadline passed in between), the contract's final settle releases the stray hold (`final`).
// Reads whose answer decides a write (the panel registry, the eligibility holds) stay scheduled
// activities: their answer must be in the history before anything depends on it.
import { proxyActivities, proxyLocalActivities, type ActivityInterfaceFor } from '@temporalio/workflow';
import type { LedgerActivities, SettleInput } from '../../activities/ledger-activities';
import type { PanelActivities } from '../../activities/panel-activities';
import type { Lean } from './lean-history';

const options = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;

const scheduled = {
  ledger: proxyActivities<LedgerActivities>(options),
  panels: proxyActivities<PanelActivities>(options),
};
const local = {
  ledger: proxyLocalActivities<LedgerActivities>(options),
  panels: proxyLocalActivities<PanelActivities>(options),
};

/** The ledger's writes for this contract: local activities on a lean history. */
export function ledger(c: Lean): ActivityInterfaceFor<LedgerActivities> {
  return c.lean ? local.ledger : scheduled.ledger;
}

/** The panel registry's writes for this contract: local activities on a lean history. */
export function panels(c: Lean): ActivityInterfaceFor<PanelActivities> {
  return c.lean ? local.panels : scheduled.panels;
}

/** The contract's last batch: on a lean history it also releases any hold of the contract left open. */
export function settleLast(c: Lean, input: SettleInput) {
  return ledger(c).settle(c.lean ? { ...input, final: true } : input);
}

/** Reads that decide a later write: always scheduled, so their answer is durable first. */
export const reads = scheduled;
