// Every activity proxy of the contract workflow (proxyActivities / proxyLocalActivities live only here).
// Money moves only through the ledger; every call is
// idempotent by its ledger operation id (`<contractId>:<step>`), so unlimited retries of
// infrastructure errors are safe. Domain errors (InsufficientFunds, ...) are non-retryable failures
// raised by the activities. The panel activities seat and close the Backup Agent panel (also idempotent).
//
// Local activities, run on the worker that runs the workflow task and recorded as one marker event
// (instead of three events and a workflow task): the escrow lock (its body is the contract's input),
// the contract's last batch, the panel's seats, the scoring, the draw secret and the read model's
// writes (read-model.ts: the store keeps a retried task's higher version). They run one at a time. A local activity is run again only when
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
import { WorkflowLock } from './lock';

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

/**
 * The milestone being worked after the first (milestone-loop.ts): its bonds, fees and batches carry
 * `scope: milestone:<i>`, so their ids are its own (activity-interfaces/ledger Scoped). Module state is
 * per workflow run, and only the main loop moves it, so live and replayed runs scope the same calls.
 */
let ledgerScope: string | undefined;

export function setLedgerScope(scope: string | undefined): void {
  ledgerScope = scope;
}

const SCOPED_CALLS: ReadonlySet<PropertyKey> = new Set(['lockBond', 'lockAppealBond', 'settle']);

function scoped<T extends object>(proxy: T): T {
  return new Proxy(proxy, {
    get(target, name) {
      const call = Reflect.get(target, name) as (input: object) => Promise<unknown>;
      if (!SCOPED_CALLS.has(name)) return call;
      return (input: { scope?: string }) =>
        call(
          ledgerScope === undefined || input.scope !== undefined ? input : { ...input, scope: ledgerScope },
        );
    },
  });
}

export const scheduled = {
  ledger: scoped(proxyActivities<LedgerActivities>(options)),
  panels: proxyActivities<PanelActivities>(options),
};

/**
 * One local activity at a time per run (module state is per workflow run in the sandbox). Two local
 * activities in flight at once complete in separate activations when run, but a replay may resolve both
 * in one, so the handlers they resume could emit their commands in another order (a nondeterminism
 * error). Every local activity queues for its turn here, so each resolves alone, live and in replay.
 */
const turn = new WorkflowLock();

function oneAtATime<T extends object>(proxy: T): T {
  return new Proxy(proxy, {
    get(target, name) {
      const call = Reflect.get(target, name) as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => turn.run(() => call(...args));
    },
  });
}

export const local = {
  ledger: scoped(oneAtATime(proxyLocalActivities<LedgerActivities>(options))),
  panels: oneAtATime(proxyLocalActivities<PanelActivities>(options)),
  /**
   * The draw secret (draw-secret.ts), sealed in the history. A retried task draws a new secret, which
   * is safe: the one drawn before is in no history and its commitment reached nobody (both are
   * written by the task that completes).
   */
  draws: oneAtATime(proxyLocalActivities<DrawActivities>(options)),
  /** The read model's writes (read-model.ts). */
  records: oneAtATime(proxyLocalActivities<RecordActivities>(options)),
  /** The outcome log (settlement/outcomes.ts): each party's record written once, whatever a retry does. */
  outcomes: oneAtATime(proxyLocalActivities<OutcomeActivities>(options)),
  /** The automatic verifier's scoring (work/auto-verifier.ts): no side effect. */
  scoring: oneAtATime(proxyLocalActivities<ScoringActivities>(scoringOptions)),
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
