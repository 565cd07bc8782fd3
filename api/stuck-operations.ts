// The operator's side of "no failure may leave money held" (docs/operations.md): resolve a contract
// waiting for the operator (the workflow's `resolveStuck` Update), and the reconciler's report and
// release of holds whose contract is closed.
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Ledger } from '../activities/ledger';
import type { ContractRecordStore } from '../activities/records';
import {
  contractClosedCheck,
  findStrandedHolds,
  releaseStrandedHolds,
  strandedToWire,
  type StrandedHoldWire,
} from '../activities/stranded-holds';
import { contractWorkflowId } from '../workflows/definitions';
import { resolveStuckUpdate, type ResolveStuckResult } from '../workflows/operator-messages';
import type { OperatorAction } from '../workflows/rules/events';
import { conflict, contractNotFound } from './errors';

export interface StuckOperations {
  /** Sends the operator's action to a contract waiting for it; 409 when it is not waiting. */
  resolve(contractId: string, action: OperatorAction): Promise<ResolveStuckResult>;
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
  return {
    async resolve(contractId, action) {
      try {
        return await deps.client.workflow
          .getHandle(contractWorkflowId(contractId))
          .executeUpdate(resolveStuckUpdate, { args: [{ action }] });
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        if ((await deps.records.get(contractId)) === undefined) throw contractNotFound(contractId);
        throw conflict(`contract ${contractId} is closed`, undefined, 'not_stuck');
      }
    },
    async strandedHolds() {
      return (await findStrandedHolds(deps.ledger, isClosed)).map(strandedToWire);
    },
    async releaseStranded() {
      return (await releaseStrandedHolds(deps.ledger, isClosed)).map(strandedToWire);
    },
  };
}
