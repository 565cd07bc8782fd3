// The wire types of the agent SDK (docs/api.md). Every answer type is inferred from the zod schema
// the route declares as its response, which is also what /openapi.json publishes and what the
// handler's `c.json` is checked against: one declaration, so the three cannot drift apart.
import type { z } from '@hono/zod-openapi';
import type { ContractEvent } from '../../workflows/rules/events';
import type { requirementsSchema } from '../routes/eligibility';
import type { paramsSchema } from '../routes/params';
import type { payoutSchema, withdrawalResultSchema } from '../routes/withdrawals';
import type {
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
  partyViewSchema,
  publicViewSchema,
  quoteBody,
  voteRowSchema,
} from '../schemas';

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
export type EligibilityResult = z.infer<typeof eligibilitySchema>;
export type EligibilityRequirements = z.infer<typeof requirementsSchema>;
export type DepositResult = z.infer<typeof depositResultSchema>;
export type Payout = z.infer<typeof payoutSchema>;
export type WithdrawalResult = z.infer<typeof withdrawalResultSchema>;
export type ProtocolParams = z.infer<typeof paramsSchema>;

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
