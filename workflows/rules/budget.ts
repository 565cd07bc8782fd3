// A contract's Temporal budget (docs/security.md "Temporal budget"). A workflow run allows 2,000
// Updates, 10 in flight, and ~51,200 history events (Temporal suggests continue-as-new from 10,240).
// What any agent that is not a party may spend is capped here so the parties and the drawn panel
// always have the rest: the caps bound a run's history far below the limits (the arithmetic below).

export const BUDGET = {
  /** Accepted quotes per bidder: its first quote and 9 replacements. */
  quotesPerBidder: 10,
  /** Bidders holding a live quote at once; at the cap a better quote replaces the worst. */
  biddersPerContract: 100,
  /** Accepted quotes per contract, replacements included. */
  quotesPerContract: 300,
  /** A non-party's messages refused for lack of funds after they were accepted (its stake or bond lock failed). */
  failedLocksPerAgent: 3,
  /** Non-parties' failures in total, after which only an agent that never failed may try. */
  failedLocksPerContract: 30,
  /** Refused messages written to the event log, per agent (then dropped from the log). */
  loggedRejectionsPerAgent: 3,
  /** Refused messages written to the event log, in total. */
  loggedRejectionsPerContract: 100,
  /** A non-party message is refused once the run's history reaches this many events. */
  nonPartyHistoryEvents: 5_000,
  /** A non-party message is refused once the run has accepted this many Updates. */
  nonPartyUpdates: 1_000,
} as const;

/**
 * Refusal codes that stay true for the caller, the message and the contract once given (the counts
 * behind them only grow), so the API may answer a repeat without asking the workflow again.
 */
export const LASTING_REFUSALS: readonly string[] = ['quote_limit', 'lock_limit', 'contract_busy'];

/** Temporal's per-run limits (server defaults) that the budget keeps clear of. */
export const TEMPORAL_LIMITS = {
  updatesPerRun: 2_000,
  updatesInFlight: 10,
  /** The server suggests continue-as-new from here (history.historyCountLimitWarn). */
  historyEventsWarn: 10_240,
  /** The run is terminated here (history.historyCountLimitError). */
  historyEventsError: 51_200,
} as const;

/**
 * History events one accepted message may write, at most: UpdateAccepted + UpdateCompleted (or the
 * Signal's one event), a workflow task before and after an activity (3 events each), an activity
 * (scheduled, started, closed), a search-attribute upsert, a timer restart (started, cancelled) and the
 * read model's write (one local-activity marker). A quote holds its bid bond with an activity.
 */
export const EVENTS_PER_QUOTE = 2 + 3 + 3 + 3 + 1 + 2 + 1;
export const EVENTS_PER_FAILED_LOCK = 2 + 3 + 3 + 3 + 2 + 1;

/**
 * The most history every non-party together can write in one run (docs/security.md): the headroom
 * check refuses non-parties from `nonPartyHistoryEvents` on; it is made before a message is accepted, so
 * one last wave of up to `updatesInFlight` admitted messages can pass it together. The per-bidder and
 * per-contract quote caps alone stay below it (300 quotes write at most 4,500 events).
 */
export function nonPartyEventBound(b: typeof BUDGET = BUDGET): number {
  return b.nonPartyHistoryEvents + TEMPORAL_LIMITS.updatesInFlight * EVENTS_PER_FAILED_LOCK;
}
