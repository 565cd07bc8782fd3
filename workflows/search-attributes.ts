// Typed search attributes an operator finds contracts by in the Temporal UI (docs/operations.md "Reading contracts in the Temporal UI").
// Sandbox-safe: imported by workflows, the worker, the API and temporal.config.ts alike.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const contractStatusKey = defineSearchAttributeKey('ContractStatus', SearchAttributeType.KEYWORD);
export const contractCodeKey = defineSearchAttributeKey('ContractCode', SearchAttributeType.KEYWORD);
export const clientKey = defineSearchAttributeKey('Client', SearchAttributeType.KEYWORD);
export const workerKey = defineSearchAttributeKey('Worker', SearchAttributeType.KEYWORD);
export const nextDeadlineKey = defineSearchAttributeKey('NextDeadline', SearchAttributeType.DATETIME);
/** Auctions only: how many bidders hold a live quote (never their prices). */
export const quoteCountKey = defineSearchAttributeKey('QuoteCount', SearchAttributeType.INT);
/** True while a money step the ledger refused waits for the operator (docs/operations.md). */
export const needsOperatorKey = defineSearchAttributeKey('NeedsOperator', SearchAttributeType.BOOL);

/** True while no full Backup Agent panel can be seated and the draw is retried. */
export const panelPendingKey = defineSearchAttributeKey('PanelPending', SearchAttributeType.BOOL);
/** True once the recruitment window passed without a panel: the operator decides as trusted arbiter. */
export const awaitingArbiterKey = defineSearchAttributeKey('AwaitingArbiter', SearchAttributeType.BOOL);

/** Contracts with milestones only: the milestone being worked (0-based), the last once ended. */
export const milestoneKey = defineSearchAttributeKey('Milestone', SearchAttributeType.INT);

export const contractSearchAttributes = [
  contractStatusKey,
  contractCodeKey,
  clientKey,
  workerKey,
  nextDeadlineKey,
  quoteCountKey,
  needsOperatorKey,
  panelPendingKey,
  awaitingArbiterKey,
  milestoneKey,
] as const;
