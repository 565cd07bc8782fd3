// Every activity proxy of the contract workflow (proxyActivities / proxyLocalActivities live only here).
// Money moves only through the ledger; every call is
// idempotent by its ledger operation id (`<contractId>:<step>`), so unlimited retries of
// infrastructure errors are safe. Domain errors (InsufficientFunds, ...) are non-retryable failures
// raised by the activities. The panel activities seat and close the Backup Agent panel (also idempotent).
//
// Local activities, run on the worker that runs the workflow task and recorded as one marker event
// (instead of three events and a workflow task): the escrow lock (its body is the contract's input),
// the contract's last batch, the panel's seats, the scoring, the draw secret and the durable record
// (record.ts: the store takes a retried task's rewrite). A local activity is run again only when
// its workflow task fails before completing; the retried task replays the same history and makes the
// same call, which the ledger answers as a replay (or refuses as a conflict: never a second move).
// Scheduled: a hold a message locks where messages race (an open tender's accepts, an auction's
// match), since a retried task may take another message first and the hold must not exist without
// its message's acceptance (docs/performance.md §3); the holds of messages that cannot race — a
// direct award's accept, the dispute, a vote — are local (messageLock). Scheduled, always: the reads
// a later write depends on (the panel registry, the eligibility holds), whose answer must be in the
// history first.
import { proxyActivities, proxyLocalActivities, type ActivityInterfaceFor } from '@temporalio/workflow';
import type {
  DrawActivities,
  LedgerActivities,
  OperatorActivities,
  OutcomeActivities,
  PanelActivities,
  RecordActivities,
  ScoringActivities,
  SettleInput,
} from '../activity-interfaces';

const options = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;

// Pure computation: a few attempts cover a worker restart; past them the delivery stays unscored
// rather than holding the deliver Update open.
const scoringOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    maximumAttempts: 5,
  },
} as const;

export const scheduled = {
  ledger: proxyActivities<LedgerActivities>(options),
  panels: proxyActivities<PanelActivities>(options),
};

export const local = {
  ledger: proxyLocalActivities<LedgerActivities>(options),
  panels: proxyLocalActivities<PanelActivities>(options),
  /**
   * The draw secret (draw-secret.ts), sealed in the history. A retried task draws a new secret, which
   * is safe: the one drawn before is in no history and its commitment reached nobody (both are
   * written by the task that completes).
   */
  draws: proxyLocalActivities<DrawActivities>(options),
  records: proxyLocalActivities<RecordActivities>(options),
  /** The outcome log (outcomes.ts): each party's record written once, whatever a retry does. */
  outcomes: proxyLocalActivities<OutcomeActivities>(options),
  /** The automatic verifier's scoring (auto-verifier.ts): no side effect. */
  scoring: proxyLocalActivities<ScoringActivities>(scoringOptions),
};

/**
 * The hold a message locks (a stake, a bond). Local only where `raceFree`: one caller can pass the
 * message's validator, once (the named Worker's accept, the Client's dispute, a drawn BA's vote), so a
 * retried task locks the same hold under the same operation id and a hold left by a task that never
 * completed is released by the contract's last batch (`final`, settleLast).
 */
export function messageLock(raceFree: boolean): ActivityInterfaceFor<LedgerActivities> {
  return raceFree ? local.ledger : scheduled.ledger;
}

/** The contract's last batch: it also releases any hold of the contract left open. */
export function settleLast(input: SettleInput) {
  return local.ledger.settle({ ...input, final: true });
}

/** The operator's release of every hold (needs-operator.ts). */
export const operator = proxyActivities<OperatorActivities>(options);
