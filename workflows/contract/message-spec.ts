// What each phase's messages.ts declares of a message (messages.ts registers it): its Signal and Update,
// its checks, and what it does once they pass; and the waits its handler may answer after.
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { condition } from '@temporalio/workflow';
import type { MessageReceipt } from '../definitions';
import type { ContractMessage } from '../rules/message-names';
import { reject, type Rejection } from './rejection';
import type { Contract } from './state';

export interface MessageSpec<I> {
  message: ContractMessage;
  signal: SignalDefinition<[I]>;
  update: UpdateDefinition<MessageReceipt, [I]>;
  validate(c: Contract, input: unknown): Rejection | null;
  /** Runs after the checks passed. May wait (a lock, an activity) and throw a rejection. */
  run(c: Contract, input: I): Promise<void>;
}

/** Re-checks after a wait: the state may have changed while the message queued for the lock. */
export function recheck(c: Contract, input: unknown, validate: MessageSpec<unknown>['validate']): void {
  const broken = validate(c, input);
  if (broken !== null) reject(broken);
}

/**
 * Handlers that end the contract (or, with milestones, the current milestone) leave the money to the main
 * loop and answer once it is done: the contract ended, or the next milestone started (no decision pending).
 */
export async function untilClosed(c: Contract): Promise<void> {
  await condition(() => c.terminal || (c.milestone !== null && c.decision === null));
}

/** Until the panel is drawn, or none can be seated yet (the answer says the contract waits), or it ended. */
export async function untilPanelSettled(c: Contract): Promise<void> {
  await condition(() => c.panel.current !== null || c.panel.recruitment !== null || c.terminal);
}
