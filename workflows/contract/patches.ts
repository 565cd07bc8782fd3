// Every patched() id of the contract workflow, in the order they were added, each with what it
// changed. A history recorded before a patch has no marker for it and replays the commands it had
// (docs/workflow.md "State protocol"). Every patched() call names its id from here.
export const PATCHES = {
  /** The automatic verifier scores a delivery's machine checks (a scoring activity). */
  autoVerifier: 'auto-verifier',
  /** Standard mode draws a Backup Agent panel at delivery; before it, such contracts waited in `under-review`. */
  panel: 'v2c-standard-panel',
  /** An auction's Match Deadline closes bidding (the best quote wins); before it, it ended `cancelled-unmatched`. */
  auction: 'auction-bidding',
  /** The terminal view, event log and vote rows are written to the durable record. */
  record: 'contract-record',
  /** The draw secret is fetched at creation and its commitment published; before it, the draw used the old seed. */
  drawSecret: 'draw-secret-commitment',
  /** A step whose activity fails for good waits for the operator; before it, the workflow failed. */
  needsOperator: 'needs-operator',
  /** The lean history (lean-history.ts): local activities, one timer a deadline, one upsert a task. */
  leanHistory: 'lean-history',
  /** Signals pass the run's budget (budget.ts) too; before it, a Signal was checked by its rules only. */
  signalBudget: 'signal-budget',
  /** A Worker Stake that rounds to zero is no hold; before it, the workflow tried to lock it. */
  zeroStake: 'zero-stake-no-hold',
  /** The leaner history (lean-history.ts): the draw secret and the record as local activities; a failed step waits for the operator without a needs-operator marker (needs-operator.ts). */
  leanerHistory: 'leaner-history',
} as const;

export type PatchId = (typeof PATCHES)[keyof typeof PATCHES];
