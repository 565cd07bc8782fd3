// An Update the Temporal server failed as "unprocessed": no worker took it (the workflow task that carried it
// was lost or failed), so it changed nothing and may be sent again.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

export const UNPROCESSED_UPDATE = 'UnprocessedUpdate';

export function isUnprocessedUpdate(err: unknown): boolean {
  return (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === UNPROCESSED_UPDATE
  );
}

/** Runs `send` again, up to `attempts` in all, while its Update comes back unprocessed. */
export async function sendUntilProcessed<T>(send: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= attempts || !isUnprocessedUpdate(err)) throw err;
    }
  }
}
