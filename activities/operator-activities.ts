// Activities of the operator's tools (docs/operations.md): the release of a stuck contract's holds,
// and the reconciler's pass over holds whose contract is closed. Ledger domain errors become
// non-retryable failures named by their code, as in ledger-activities.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { OperatorActivities, StrandedHoldWire } from '../workflows/activity-interfaces';
import { invalid } from './invalid-input';
import { LedgerError, type Ledger } from '../store/ledger';
import type { ContractRecordStore } from '../store/records';
import {
  contractClosedCheck,
  findStrandedHolds,
  releaseContractHolds,
  releaseStrandedHolds,
  strandedToWire,
} from '../store/stranded-holds';

export interface OperatorActivityDeps {
  ledger: Ledger;
  records: ContractRecordStore;
}

async function ledgerWork<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LedgerError) throw ApplicationFailure.nonRetryable(error.message, error.code);
    throw error;
  }
}

export function createOperatorActivities({ ledger, records }: OperatorActivityDeps): OperatorActivities {
  return {
    /** The operator's `release`: every open hold of the contract back to its owner. */
    async releaseContractHolds(input: { contractId: string }): Promise<{ released: number }> {
      if (typeof input.contractId !== 'string' || input.contractId === '')
        invalid('contractId', 'must be a non-empty string');
      const released = await ledgerWork(() => releaseContractHolds(ledger, input.contractId));
      return { released: released.length };
    },

    /** The reconciler's pass: reports the holds of closed contracts and, with `release`, releases them. */
    async reconcileHolds(input: { release: boolean }): Promise<{ stranded: StrandedHoldWire[] }> {
      const isClosed = contractClosedCheck(records, Context.current().client.workflow);
      const holds = await ledgerWork(() =>
        input.release ? releaseStrandedHolds(ledger, isClosed) : findStrandedHolds(ledger, isClosed),
      );
      return { stranded: holds.map(strandedToWire) };
    },
  };
}
