// The wire types of the agent SDK (docs/api.md). Every answer type is inferred from the zod schema
// the route declares as its response, which is also what /openapi.json publishes and what the
// handler's `c.json` is checked against: one declaration, so the three cannot drift apart.
import type { z } from '@hono/zod-openapi';
import type { ContractEvent } from '../../workflows/rules/events';
import type { requirementsSchema } from '../../api/routes/eligibility';
import type { agentContractsSchema, feedEntrySchema, feedPageSchema } from '../../api/routes/agent-feed';
import type { createdWebhookSchema, webhookSchema } from '../../api/routes/webhooks';
import type { verdictsResultSchema } from '../../api/routes/operator-stuck';
import type { paramsSchema } from '../../api/routes/params';
import type { payoutSchema, withdrawalResultSchema } from '../../api/routes/withdrawals';
import type {
  agentVoteRowSchema,
  agentVoteRowsSchema,
  balancesSchema,
  contractListSchema,
  contractVoteRowsSchema,
  contractViewSchema,
  depositResultSchema,
  deliveryContentSchema,
  deliveryRequestSchema,
  eligibilitySchema,
  eventsSchema,
  keySchema,
  listedContractSchema,
  mandateBody,
  mandateSchema,
  partyViewSchema,
  publicViewSchema,
  quoteBody,
  voteRowSchema,
} from '../../api/openapi/schemas';
import type {
  outcomeHeadSchema,
  outcomePageSchema,
  outcomeRecordSchema,
  reputationSchema,
} from '../../api/openapi/reputation-schemas';

export type { CreateContractBody as CreateContractRequest } from '../../workflows/rules/contract-body';
export type { ContractEvent } from '../../workflows/rules/events';
export type { Verdict } from '../../workflows/rules/verdicts';

export type PartyContractView = z.infer<typeof partyViewSchema>;
export type PublicContractView = z.infer<typeof publicViewSchema>;
export type ContractViewFor = z.infer<typeof contractViewSchema>;
export type PartyRole = PartyContractView['role'];
export type Quote = NonNullable<PublicContractView['ownQuote']>;
export type ListedContract = z.infer<typeof listedContractSchema>;
export type Balances = z.infer<typeof balancesSchema>;
export type ContentKey = z.infer<typeof keySchema>;
/** `content`: the normalized content (api/ingest); `confidence`: content.confidence, then artifact's, then artifacts'. */
export type DeliveryContent = z.infer<typeof deliveryContentSchema>;
/** The document says "an object per event"; the SDK names them by the union of workflows/rules/events.ts. */
export type ContractEvents = Omit<z.infer<typeof eventsSchema>, 'events'> & { events: ContractEvent[] };
/** One vote row of docs/protocol.md §8 (reward: OCT minor units, decimal string). */
export type VoteRow = z.infer<typeof voteRowSchema>;
export type ContractVoteRows = z.infer<typeof contractVoteRowsSchema>;
export type AgentVoteRows = z.infer<typeof agentVoteRowsSchema>;
export type AgentVoteRow = z.infer<typeof agentVoteRowSchema>;
export type EligibilityResult = z.infer<typeof eligibilitySchema>;
export type EligibilityRequirements = z.infer<typeof requirementsSchema>;
export type DepositResult = z.infer<typeof depositResultSchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type Mandate = z.infer<typeof mandateSchema>;
export type MandateRequest = z.input<typeof mandateBody>;
export type WithdrawalResult = z.infer<typeof withdrawalResultSchema>;
export type ProtocolParams = z.infer<typeof paramsSchema>;
export type ArbiterVerdictsResult = z.infer<typeof verdictsResultSchema>;
/** One record of the public outcome log (docs/reputation.md §1). */
export type OutcomeRecord = z.infer<typeof outcomeRecordSchema>;
export type OutcomePage = z.infer<typeof outcomePageSchema>;
export type OutcomeHead = z.infer<typeof outcomeHeadSchema>;
/** Raw figures per role and the trust-weighted score from the viewer (docs/reputation.md §3–§4). */
export type Reputation = z.infer<typeof reputationSchema>;

/** POST /contracts/:id/deliveries: the reference, its key, and the ingest fields. */
export type DeliveryRequest = z.input<typeof deliveryRequestSchema>;
/** POST /contracts/:id/quotes: a bid (price ≤ the budget cap); a new one replaces the caller's earlier quote. */
export type QuoteRequest = z.input<typeof quoteBody>;

/** A page of GET /contracts: pass `nextCursor` back as `cursor` (same filters) for the next one. */
export type ContractPage = z.infer<typeof contractListSchema>;

export interface ListContractsFilter {
  status?: string;
  awardMethod?: 'direct' | 'open';
  contractType?: 'fixed' | 'auction';
  limit?: number;
}

/** GET /agents/:address/contracts: the caller's contracts with their next action; page on with `nextCursor`. */
export type AgentContracts = z.infer<typeof agentContractsSchema>;
export type AgentContract = AgentContracts['contracts'][number];
/** One entry of an agent's feed: `id` is its cursor (and its webhook-id). */
export type FeedEntry = z.infer<typeof feedEntrySchema>;
export type FeedPage = z.infer<typeof feedPageSchema>;
export type Webhook = z.infer<typeof webhookSchema>;
/** A new subscription: `secret` (whsec_…) verifies its deliveries and is shown only here. */
export type WebhookCreated = z.infer<typeof createdWebhookSchema>;

export interface MyContractsFilter {
  role?: 'client' | 'worker' | 'bidder' | 'backup-agent';
  open?: boolean;
  cursor?: string;
  limit?: number;
}
