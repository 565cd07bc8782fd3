// The operator's messages to a contract workflow (docs/operations.md): resolve a money step the ledger
// refused for good; write a lost read model again. Sent by the API's operator routes only (operator token); sandbox-safe.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { OperatorAction } from './rules/events';
import type { ContractStatus } from './rules/status';

/** A contract waiting for the operator: which step failed, with which failure type, since when. */
export interface StuckStep {
  step: string;
  failureType: string;
  /** ISO-8601 UTC. */
  since: string;
}

export interface ResolveStuckInput {
  /** `retry` runs the step again; `release` returns every hold of the contract to its owner. */
  action: OperatorAction;
}

/** A small answer: where the contract stands after the operator's action was carried out. */
export interface ResolveStuckResult {
  contractId: string;
  status: ContractStatus;
  /** Still (or again) waiting for the operator: the step failed once more. */
  needsOperator: StuckStep | null;
}

export const OPERATOR_ACTIONS: readonly OperatorAction[] = ['retry', 'release'];

export const resolveStuckUpdate = defineUpdate<ResolveStuckResult, [ResolveStuckInput]>('resolveStuck');
export const needsOperatorQuery = defineQuery<StuckStep | null>('needsOperator');

/** Writes the contract's read model again from the start (a lost read model: docs/records.md). */
export const rewriteReadModelSignal = defineSignal('rewriteReadModel');

/** The trusted arbiter's verdicts: one `met` or `not met` per criterion, in criterion order. */
export interface ArbiterVerdictsInput {
  verdicts: Array<'met' | 'not met'>;
}

/** Where the contract stands once the verdicts are settled. */
export interface ArbiterVerdictsResult {
  contractId: string;
  status: ContractStatus;
  criteriaMet: Array<'met' | 'not met' | 'unclear'> | null;
}

export const arbiterVerdictsUpdate = defineUpdate<ArbiterVerdictsResult, [ArbiterVerdictsInput]>(
  'arbiterVerdicts',
);
