// The operator's rebuild of a lost contract read model (docs/records.md "If the read model is lost"):
// every running contract workflow is signalled to write its view and whole event log again. A closed
// contract's row is restored with the ledger database it lives in.
import type { Client } from '@temporalio/client';
import { CONTRACT_WORKFLOW_TYPE } from '../workflows/definitions';
import { rewriteReadModelSignal } from '../workflows/operator-messages';

/** Signals every running contract to rewrite its read model; the workflow IDs it signalled. */
export async function rebuildReadModel(client: Client): Promise<string[]> {
  const signalled: string[] = [];
  const running = client.workflow.list({
    query: `WorkflowType = '${CONTRACT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running'`,
  });
  for await (const execution of running) {
    await client.workflow.getHandle(execution.workflowId).signal(rewriteReadModelSignal);
    signalled.push(execution.workflowId);
  }
  return signalled;
}
