// Holds that outlived their contract (docs/operations.md). A contract's holds are resolved by its
// workflow; one still open once the contract is closed (a terminal record, or a workflow that is no
// longer running) can never be resolved by the rules any more, so it goes back to its owner. Also the
// operator's release of a stuck contract: every open hold of one contract voided in one batch.
import { WorkflowNotFoundError } from '@temporalio/client';
import { contractWorkflowId } from '../workflows/definitions';
import type { Hold, Ledger } from './ledger';
import type { StrandedHoldWire } from '../workflows/activity-interfaces';
import { isClosedRecord, type ContractRecordStore } from './records';

/** Voids every open hold of the contract (op id `<holdId>:release`); a retry finds nothing open. */
export async function releaseContractHolds(ledger: Ledger, contractId: string): Promise<Hold[]> {
  const open = (await ledger.holdsByContract(contractId)).filter((h) => h.status === 'open');
  if (open.length > 0) {
    await ledger.batch(open.map((h) => ({ kind: 'void', id: `${h.id}:release`, holdId: h.id })));
  }
  return open;
}

/** Whether a contract is closed: its rules can no longer resolve a hold. */
export type IsClosed = (contractId: string) => Promise<boolean>;

/** Open holds whose contract is closed, oldest first. */
export async function findStrandedHolds(ledger: Ledger, isClosed: IsClosed): Promise<Hold[]> {
  const open = await ledger.openContractHolds();
  const contracts = [...new Set(open.map((h) => h.contractId!))];
  const closed = new Set<string>();
  for (const id of contracts) if (await isClosed(id)) closed.add(id);
  return open.filter((h) => closed.has(h.contractId!));
}

/** Releases every stranded hold to its owner; answers what was released. */
export async function releaseStrandedHolds(ledger: Ledger, isClosed: IsClosed): Promise<Hold[]> {
  const stranded = await findStrandedHolds(ledger, isClosed);
  const released: Hold[] = [];
  for (const id of new Set(stranded.map((h) => h.contractId!))) {
    // Asked again right before the release: a contract is never reopened, so this only narrows.
    if (await isClosed(id)) released.push(...(await releaseContractHolds(ledger, id)));
  }
  return released;
}

/** A stranded hold on the wire (the operator route's and the reconciler's report). */
export function strandedToWire(h: Hold): StrandedHoldWire {
  return {
    holdId: h.id,
    contractId: h.contractId!,
    owner: h.owner.startsWith('agent:') ? h.owner.slice('agent:'.length) : h.owner,
    kind: h.kind,
    amount: h.amount.toString(),
    createdAt: h.createdAt,
  };
}

/** The part of a Temporal client the closed check reads. */
export interface WorkflowDescriber {
  getHandle(workflowId: string): { describe(): Promise<{ status: { name: string } }> };
}

/**
 * A contract is closed when its durable record exists (it reached a terminal status) or its workflow
 * is not running (failed, terminated, timed out) or is gone.
 */
export function contractClosedCheck(
  records: Pick<ContractRecordStore, 'get'>,
  workflows: WorkflowDescriber,
): IsClosed {
  return async (contractId) => {
    if (isClosedRecord(await records.get(contractId))) return true;
    try {
      const described = await workflows.getHandle(contractWorkflowId(contractId)).describe();
      return described.status.name !== 'RUNNING';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return true;
      throw error;
    }
  };
}
