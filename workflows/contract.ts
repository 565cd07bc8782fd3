// The contract workflow: one per contract, workflow ID `contract-<contractId>` (docs/protocol.md §3–§7a, §12–§14).
// Also the worker's workflowsPath: it exports every workflow the worker runs.
import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { ContractInput, ContractOutcome } from './definitions';
import { lockEscrow, runContract } from './contract/lifecycle';
import { registerHandlers } from './contract/messages';
import { registerArbiterHandler } from './contract/panel/arbiter';
import { registerOperatorHandlers } from './contract/needs-operator';
import { registerReadModelRebuild, writeReadModel } from './contract/read-model';
import { appendOutcomes } from './contract/settlement/outcomes';
import { newContract } from './contract/state';

export { holdReconcilerWorkflow } from './reconciler';
export { webhookDeliveryWorkflow } from './webhook-delivery';

export async function contractWorkflow(input: ContractInput): Promise<ContractOutcome> {
  const contract = newContract(input, Date.now());
  registerHandlers(contract);
  registerOperatorHandlers(contract);
  registerArbiterHandler(contract);
  registerReadModelRebuild(contract);
  if (await lockEscrow(contract)) await runContract(contract);
  await condition(allHandlersFinished);
  const { contractId, escrow } = contract;
  if (escrow.state === 'refused') return { created: false, reason: escrow.reason, contractId };
  // The terminal write: the contract's durable record (docs/records.md).
  await writeReadModel(contract);
  await appendOutcomes(contract);
  return { created: true, status: contract.status, contractId };
}
