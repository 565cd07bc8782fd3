// `temporal workflow delete`, as an operator would run it, then waits until the server has removed the
// workflow (it deletes asynchronously: the dev server takes about half a minute, longer when loaded).
import { execFileSync } from 'node:child_process';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { serverPaths } from '../../temporal.config';
import { contractWorkflowId } from '../../workflows/definitions';
import { eventually } from '../support/eventually';

export async function deleteContractWorkflow(
  env: TestWorkflowEnvironment,
  contractId: string,
): Promise<void> {
  const workflowId = contractWorkflowId(contractId);
  execFileSync(serverPaths.cli, [
    'workflow',
    'delete',
    '--workflow-id',
    workflowId,
    '--address',
    env.address,
    '--namespace',
    env.namespace ?? 'default',
  ]);
  const handle = env.client.workflow.getHandle(workflowId);
  await eventually(
    () =>
      handle.describe().then(
        () => false,
        (err: unknown) => err instanceof WorkflowNotFoundError,
      ),
    (gone) => gone,
    120_000,
  );
}
