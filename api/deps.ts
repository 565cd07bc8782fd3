// What the API needs from the outside, injected so tests run it with `app.request()` on real parts.
import type { Client } from '@temporalio/client';
import type { Ledger } from '../store/ledger';
import type { ContractRecordStore } from '../store/records';
import type { ProtocolParams } from '../workflows/rules/params';
import type { NonceStore } from '../store';
import type { CodecServerSettings } from './operator/codec-server';
import type { ContractContext } from './contracts/context';
import type { IdempotencyStore } from '../store/idempotency';
import type { PayoutStore } from '../store/payouts/sqlite';
import type { RateLimitSettings, RateLimitStore } from './http/rate-limit';
import type { StreamSlots } from './http/stream-caps';
import type { StuckOperations } from './operator/stuck-operations';
import type { KeyVault } from '../store/vault/sqlite';
import type { FeedStore } from '../store/agent-feed';
import type { Resolve } from '../webhooks/target';
import type { WebhookWorkflows } from '../webhooks/delivery-workflows';
import type { TrustedProxies } from './http/client-address';
import type { OutcomeLog } from '../store/outcomes';

export interface AppDeps {
  temporal: Client;
  taskQueue: string;
  ledger: Ledger;
  /** Terminal contracts' durable records, read once the workflow is closed or gone. */
  records: ContractRecordStore;
  vault: KeyVault;
  nonces: NonceStore;
  idempotency: IdempotencyStore;
  /** Withdrawals waiting for (or done by) the operator's payout rail. */
  payouts: PayoutStore;
  params: ProtocolParams;
  operatorToken: string;
  /** Seals listing cursors (CURSOR_KEY): the same in every API process of a deployment. */
  cursorKey: Uint8Array;
  /** Serve Temporal's remote codec protocol at /codec (api/operator/codec-server.ts); absent: no /codec routes. */
  codecServer?: CodecServerSettings;
  /** Milliseconds since the epoch; defaults to Date.now. */
  now?: () => number;
  /** Largest accepted request body (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Where unexpected (500) errors are reported; defaults to console.error. */
  logError?: (err: unknown) => void;
  /** The event stream's polling, duration limit and heartbeat (DEFAULT_EVENT_STREAM below). */
  eventStream?: Partial<EventStreamSettings>;
  /** The agents' contracts, feeds and webhooks (docs/agents.md); without it those routes are not served. */
  feed?: AgentFeedDeps;
  /** The reverse proxies whose forwarded client address is honoured (api/http/client-address.ts); default none. */
  trustedProxies?: TrustedProxies;
  /** The public outcome log and the operator's trust anchors (docs/reputation.md); absent: those routes answer 404. */
  outcomes?: { log: OutcomeLog; trustAnchors?: readonly string[] };
  /** Rate limits and stream caps (api/http/rate-limit.ts); defaults: DEFAULT_RATE_LIMITS, in memory. */
  limits?: {
    settings?: Partial<RateLimitSettings>;
    store?: RateLimitStore;
    streams?: StreamSlots;
  };
}

/** The deps with defaults applied and the Temporal gateway built: what the sub-apps receive. */
export interface ApiContext extends ContractContext {
  /** The operator's resolution of stuck contracts and stranded holds. */
  stuck: StuckOperations;
  vault: KeyVault;
  nonces: NonceStore;
  idempotency: IdempotencyStore;
  /** Withdrawals waiting for (or done by) the operator's payout rail. */
  payouts: PayoutStore;
  operatorToken: string;
  now: () => number;
  eventStream: EventStreamSettings;
  feed: AgentFeedContext | undefined;
  limits: {
    settings: RateLimitSettings;
    store: RateLimitStore;
    streams: StreamSlots;
    /** The agent holds at least a minimum Worker Stake (api/http/rate-limit.ts agentLimit). */
    atStake: (agent: string) => Promise<boolean>;
    /** The verified-agent tickets' key (api/auth/agent-ticket.ts), derived from the cursor key. */
    ticketKey: Buffer;
  };
}

export interface AgentFeedDeps {
  store: FeedStore;
  /** Marks a contract as changed, so the feed projector looks at it soon (store/agent-feed/projector.ts). */
  touch(contractId: string): Promise<void>;
  /** Webhooks may target http and loopback or private addresses (local development only). */
  webhookAllowPrivate: boolean;
  /** Tests only: another resolver than the system's for the webhook target check. */
  resolve?: Resolve;
  /** Tests only: the longest wait between two attempts of a webhook post (default 10 minutes). */
  webhookMaxRetryIntervalMs?: number;
}

export interface AgentFeedContext extends AgentFeedDeps {
  webhooks: WebhookWorkflows;
}

export interface EventStreamSettings {
  /** How often the workflow's event log is read while the stream is open. */
  pollMs: number;
  /** A stream is closed after this long (the client resumes with Last-Event-ID). */
  maxDurationMs: number;
  /** A comment line is sent after this long without a message, so proxies keep the connection. */
  heartbeatMs: number;
}

export const DEFAULT_EVENT_STREAM: EventStreamSettings = {
  pollMs: 1000,
  maxDurationMs: 10 * 60_000,
  heartbeatMs: 15_000,
};
