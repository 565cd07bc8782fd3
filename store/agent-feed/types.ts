// The agent feed (docs/agents.md): per agent, an append-only, ordered log of what concerns it, each
// entry with a stable id; the contracts each agent takes part in; its webhook subscriptions.
import type { AgentRole, NextAction } from '../../workflows/rules/next-action';

export type FeedEntryType = 'contract.event' | 'agent.named' | 'agent.drawn' | 'agent.reminder';

/** One entry as the agent reads it (cursor read, SSE, webhook body). */
export interface FeedEntry {
  /** Stable and increasing per agent: a decimal integer. */
  id: string;
  agent: string;
  contractId: string;
  type: FeedEntryType;
  /** ISO-8601 UTC: when it happened (the event's time; a reminder's time of writing). */
  at: string;
  /** contract.event: the event as this agent may read it (content-free). */
  event?: Record<string, unknown>;
  /** agent.named / agent.drawn / agent.reminder: the agent's role and what it is expected to do. */
  role?: AgentRole;
  nextAction?: NextAction;
}

/** An entry before it has an id; `dedup` makes a repeated write of it a no-op. */
export interface NewFeedEntry extends Omit<FeedEntry, 'id'> {
  dedup: string;
}

export interface AgentContractRole {
  agent: string;
  role: AgentRole;
  /** ms since the epoch: when the agent took this role (the listing's order). */
  since: number;
}

/** What one projection of a contract writes, all or nothing. */
export interface FeedCommit {
  contractId: string;
  /** Events of the log already projected when the projection read it: the write happens only if still so. */
  expected: number;
  /** Events projected after this write. */
  projected: number;
  closed: boolean;
  /** When the contract should be looked at again (its next deadline or reminder), ms; null: none. */
  dueAt: number | null;
  entries: NewFeedEntry[];
  roles: AgentContractRole[];
}

export interface ContractProjection {
  projected: number;
  closed: boolean;
}

export interface AgentContractRow {
  contractId: string;
  roles: AgentRole[];
  since: number;
  closed: boolean;
}

export interface AgentContractsQuery {
  agent: string;
  role?: AgentRole;
  open?: boolean;
  limit: number;
  /** Keyset: contracts taken up strictly before this position (newest first). */
  before?: { since: number; contractId: string };
}

export interface WebhookSubscription {
  id: string;
  agent: string;
  url: string;
  secret: string;
  createdAt: string;
  /** The last feed entry id delivered (or given up on); 0 before the first. */
  deliveredThrough: number;
  /** Failed attempts since the last success. */
  failures: number;
  lastError: string | null;
  lastFailureAt: string | null;
  lastSuccessAt: string | null;
  /** Entries given up on after the whole retry budget (the agent catches up from the feed). */
  abandoned: number;
}
