// Waiting on a condition, never on a fixed sleep: visibility, settlement and deletion are asynchronous.
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { contractWorkflowId } from '../../workflows/definitions';

/** Polls until `check` passes; fails with the last value read after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) assert.fail(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until the contract's workflow has completed (its record is written just before). */
export async function waitClosed(client: Client, contractId: string, timeoutMs = 60_000): Promise<void> {
  const handle = client.workflow.getHandle(contractWorkflowId(contractId));
  await eventually(
    () => handle.describe().then((d) => d.status.name),
    (status) => status === 'COMPLETED',
    timeoutMs,
  );
}
