// The wire types of the agent SDK: what each route takes and answers (docs/api.md).
export type { CreateContractBody as CreateContractRequest } from '../../workflows/rules/contract-terms';
export type { ContractViewFor, PartyContractView, PublicContractView, PartyRole } from '../contract-views';
export type { ContractEvent } from '../../workflows/rules/events';
export type { BalancesWire as Balances, ListedContract } from '../wire';
import type { ContractEvent } from '../../workflows/rules/events';
import type { Payout } from '../payouts';
import type { BalancesWire, ListedContract } from '../wire';

export interface DeliveryRequest {
  uri: string;
  sha256: string;
  key: string;
  content?: Record<string, unknown>;
  artifact?: Record<string, unknown>;
  artifacts?: Record<string, unknown>;
  artifactRef?: string;
  summary?: string;
  confidence?: number;
  requestedPayout?: number;
  evidence?: unknown;
}

/** A page of GET /contracts: pass `nextCursor` back as `cursor` (same filters) for the next one. */
export interface ContractPage {
  contracts: ListedContract[];
  nextCursor: string | null;
}

export interface ListContractsFilter {
  status?: string;
  awardMethod?: 'direct' | 'open';
  contractType?: 'fixed' | 'auction';
  limit?: number;
}

/** POST /contracts/:id/quotes: a bid (price ≤ the budget cap); a new one replaces the caller's earlier quote. */
export interface QuoteRequest {
  price: string;
  confidence?: number;
  message?: string;
}

export interface ContentKey {
  contractId: string;
  kind: 'materials' | 'delivery';
  uri: string;
  sha256: string;
  key: string;
}

export interface DeliveryContent {
  contractId: string;
  uri: string;
  sha256: string;
  contentHash: string;
  /** The normalized content (api/ingest): as given, or built from the other ingest fields. */
  content: Record<string, unknown>;
  /** content.confidence, then content.artifact.confidence, then content.artifacts.confidence. */
  confidence?: number;
}

export interface ContractEvents {
  contractId: string;
  events: ContractEvent[];
}

export type EligibilityResult = BalancesWire & { locked?: string; released?: string };
export type DepositResult = BalancesWire & { asset: 'USDC'; deposited: string };

export type { Verdict } from '../../workflows/rules/verdicts';
export type { QuoteView as Quote } from '../../workflows/definitions';
/** One vote row of SPEC §8 (reward: OCT minor units, decimal string). */
export type { VoteRowView as VoteRow } from '../../workflows/definitions';

export type { Payout } from '../payouts';
export type { ProtocolParamsWire as ProtocolParams } from '../../workflows/rules/params';
export type WithdrawalResult = BalancesWire & { withdrawal: Payout };
export interface EligibilityRequirements {
  eligibilityStake: string;
  baBond: string;
  baPanelSize: number;
}
