// What the API needs from the outside, injected so tests run it with `app.request()` on real parts.
import type { Client } from '@temporalio/client';
import type { Ledger } from '../activities/ledger';
import type { ProtocolParams } from '../workflows/rules/params';
import type { NonceStore } from './auth';
import type { ContractGateway } from './contract-gateway';
import type { IdempotencyStore } from './idempotency';
import type { PayoutStore } from './payouts';
import type { EventStreamSettings } from './routes/event-stream';
import type { KeyVault } from './vault';

/**
 * Issue 6 plugs the "not on an open panel" rule in here (SPEC §8: an agent drawn on a panel keeps
 * its eligibility stake until the panel is done). Throw an ApiError to refuse the unlock.
 */
export type EligibilityUnlockCheck = (address: string) => Promise<void>;

export interface AppDeps {
  temporal: Client;
  taskQueue: string;
  ledger: Ledger;
  vault: KeyVault;
  nonces: NonceStore;
  idempotency: IdempotencyStore;
  /** Withdrawals waiting for (or done by) the operator's payout rail. */
  payouts: PayoutStore;
  params: ProtocolParams;
  operatorToken: string;
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /** Largest accepted request body (default 1 MiB). */
  bodyLimitBytes?: number;
  eligibilityUnlockCheck?: EligibilityUnlockCheck;
  /** Where unexpected (500) errors are reported; defaults to console.error. */
  logError?: (err: unknown) => void;
  /** The event stream's polling, duration limit and heartbeat (routes/event-stream.ts defaults). */
  eventStream?: Partial<EventStreamSettings>;
}

/** The deps with defaults applied and the Temporal gateway built: what the sub-apps receive. */
export interface ApiContext {
  contracts: ContractGateway;
  ledger: Ledger;
  vault: KeyVault;
  nonces: NonceStore;
  idempotency: IdempotencyStore;
  /** Withdrawals waiting for (or done by) the operator's payout rail. */
  payouts: PayoutStore;
  params: ProtocolParams;
  operatorToken: string;
  now: () => number;
  eligibilityUnlockCheck: EligibilityUnlockCheck;
  eventStream: EventStreamSettings;
}
