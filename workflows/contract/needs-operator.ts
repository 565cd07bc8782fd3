// No failure may leave money held (docs/operations.md). The main loop runs each step that moves money
// or seats a panel through `underWatch`: an activity failure that escapes its retry policy (a
// non-retryable ledger refusal, e.g. a hold already resolved elsewhere) does not fail the workflow.
// The step's in-memory changes are rolled back (the ledger batch is atomic: nothing moved), the
// contract is flagged `needs-operator` (event, NeedsOperator search attribute), and the loop waits for
// the operator: `retry` runs the step again, `release` returns every hold to its owner and ends the
// contract `cancelled-by-operator`.
import { ActivityFailure, condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { FailureType } from '../definitions';
import {
  needsOperatorQuery,
  OPERATOR_ACTIONS,
  resolveStuckUpdate,
  type ResolveStuckInput,
  type ResolveStuckResult,
  type StuckStep,
} from '../operator-messages';
import {
  contractCancelledEvent,
  needsOperatorEvent,
  operatorResolvedEvent,
} from '../rules/event-constructors';
import { cancellationFor } from '../rules/settlement';
import { needsOperatorKey } from '../search-attributes';
import { local, operator } from './activity-proxies';
import { activityFailureType, reject, rejection } from './rejection';
import type { Contract } from './state';
import { writeReadModel } from './read-model';
import { heldAmounts } from './holds';

function flag(c: Contract, stuck: StuckStep | null): void {
  c.operator.flagStuck(stuck);
  upsertSearchAttributes([{ key: needsOperatorKey, value: stuck !== null }]);
}

/** Runs one step of the main loop; a failure of one of its activities waits for the operator. */
export async function underWatch(c: Contract, step: string, work: () => Promise<void>): Promise<void> {
  const before = c.snapshot();
  try {
    await work();
  } catch (error) {
    // A scheduled activity's failure is an ActivityFailure; a local one's its own ApplicationFailure.
    const failureType = activityFailureType(error);
    if (!(error instanceof ActivityFailure || failureType !== null)) throw error;
    c.restore(before);
    c.record(needsOperatorEvent(c.eventContext('system'), { step, failureType: failureType ?? 'unknown' }));
    flag(c, { step, failureType: failureType ?? 'unknown', since: new Date(Date.now()).toISOString() });
    await condition(() => c.operator.action !== null);
    const action = c.operator.take()!;
    c.record(operatorResolvedEvent(c.eventContext('operator'), action));
    flag(c, null);
    return;
  }
  c.operator.stepCompleted();
}

/**
 * The operator's release: every open hold of the contract (escrow, stake, bonds, BA bonds) voided back
 * to its owner, the panel's seats freed, `cancelled-by-operator`. Itself run under watch by the loop.
 */
export async function releaseByOperator(c: Contract): Promise<void> {
  const released = cancellationFor('by-operator', heldAmounts(c), c.params);
  await operator.releaseContractHolds({ contractId: c.contractId });
  const { current, rows } = c.panel;
  if (current !== null && current.members.length > 0 && rows === null) {
    await local.panels.closePanel({
      contractId: c.contractId,
      milestoneIndex: c.milestone?.index ?? null,
      rows: [],
    });
  }
  c.operator.released();
  c.transition(released.status);
  c.record(
    contractCancelledEvent(c.eventContext('operator'), {
      status: released.status,
      reason: 'by-operator',
      holds: released.holds,
    }),
  );
}

function validateResolve(c: Contract, input: unknown): void {
  const action = (input as Partial<ResolveStuckInput> | null)?.action;
  if (!OPERATOR_ACTIONS.includes(action as ResolveStuckInput['action'])) {
    reject(rejection(FailureType.BadInput, 'invalid', 'action must be retry or release', 'action'));
  }
  if (c.operator.stuck === null || c.operator.action !== null) {
    reject(rejection(FailureType.Conflict, 'not_stuck', 'the contract is not waiting for the operator'));
  }
}

/** The operator's Update (sent by the API's operator route) and the query of what waits for it. */
export function registerOperatorHandlers(c: Contract): void {
  setHandler(
    resolveStuckUpdate,
    async (input: ResolveStuckInput): Promise<ResolveStuckResult> => {
      const { completed, stuck } = c.operator;
      c.operator.chose(input.action);
      // The answer comes once the step ran again: done, or stuck once more.
      await condition(
        () =>
          c.terminal ||
          c.operator.completed > completed ||
          (c.operator.stuck !== null && c.operator.stuck !== stuck),
      );
      await writeReadModel(c);
      return { contractId: c.contractId, status: c.status, needsOperator: c.operator.stuck };
    },
    { validator: (input) => validateResolve(c, input) },
  );
  setHandler(needsOperatorQuery, () => c.operator.stuck);
}
