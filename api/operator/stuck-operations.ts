// The operator's side of "no failure may leave money held" (docs/operations.md): resolve a contract
// waiting for the operator (the workflow's `resolveStuck` Update), and the reconciler's report and
// release of holds whose contract is closed.
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Ledger } from '../../store/ledger';
import type { ContractRecordStore } from '../../store/records';
import {
  contractClosedCheck,
  findStrandedHolds,
  releaseStrandedHolds,
  strandedToWire,
} from '../../store/stranded-holds';
import type { StrandedHoldWire } from '../../workflows/activity-interfaces';
import { contractWorkflowId } from '../../workflows/definitions';
import {
  arbiterVerdictsUpdate,
  resolveStuckUpdate,
  type ArbiterVerdictsInput,
  type ArbiterVerdictsResult,
  type ResolveStuckResult,
} from '../../workflows/operator-messages';
import type { OperatorAction } from '../../workflows/rules/events';
import { conflict, contractNotFound } from '../errors';

export interface StuckOperations {
  /** Sends the operator's action to a contract waiting for it; 409 when it is not waiting. */
  resolve(contractId: string, action: OperatorAction): Promise<ResolveStuckResult>;
  /** The trusted arbiter's verdicts for a contract that found no panel; 409 when it is not waiting for them. */
  arbitrate(contractId: string, verdicts: ArbiterVerdictsInput['verdicts']): Promise<ArbiterVerdictsResult>;
  /** Open holds whose contract is closed. */
  strandedHolds(): Promise<StrandedHoldWire[]>;
  /** Releases them to their owners; answers what was released. */
  releaseStranded(): Promise<StrandedHoldWire[]>;
}

export function createStuckOperations(deps: {
  client: Client;
  ledger: Ledger;
  records: ContractRecordStore;
}): StuckOperations {
  const isClosed = contractClosedCheck(deps.records, deps.client.workflow);
  /** Sends an operator Update; a contract whose workflow is gone is 404 unknown or 409 closed. */
  async function toOpenContract<T>(contractId: string, code: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      if ((await deps.records.get(contractId)) === undefined) throw contractNotFound(contractId);
      throw conflict(`contract ${contractId} is closed`, undefined, code);
    }
  }
  const handle = (contractId: string) => deps.client.workflow.getHandle(contractWorkflowId(contractId));
  return {
    resolve(contractId, action) {
      return toOpenContract(contractId, 'not_stuck', () =>
        handle(contractId).executeUpdate(resolveStuckUpdate, { args: [{ action }] }),
      );
    },
    arbitrate(contractId, verdicts) {
      return toOpenContract(contractId, 'not_awaiting_arbiter', () =>
        handle(contractId).executeUpdate(arbiterVerdictsUpdate, { args: [{ verdicts }] }),
      );
    },
    async strandedHolds() {
      return (await findStrandedHolds(deps.ledger, isClosed)).map(strandedToWire);
    },
    async releaseStranded() {
      return (await releaseStrandedHolds(deps.ledger, isClosed)).map(strandedToWire);
    },
  };
}
