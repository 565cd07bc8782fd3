// The ledger activities as the workflow calls them (activities/ledger-activities.ts implements them).
// Amounts cross the activity boundary as decimal strings of minor units: payloads are JSON.

/** Decimal string of minor units, e.g. "2500000" = 2.5 USDC. */
export type WireAmount = string;

/** The ledger's kinds of hold (a contract's events name three of them: workflows/rules/holds.ts). */
export type LedgerHoldKind = 'escrow' | 'stake' | 'dispute-bond' | 'ba-bond' | 'eligibility';

export interface LockResult {
  holdId: string;
  /** True when the hold already existed (a retry): nothing new was locked. */
  replayed: boolean;
}

/**
 * A panel fee held in the same batch as the hold it comes with (the escrow, a Dispute or Appeal Bond):
 * hold `<contractId>:panel-fee:<round>`, so a payer that cannot fund both has neither held.
 */
export interface PanelFeeInput {
  round: 'panel' | 'appeal';
  amount: WireAmount;
}

export interface LockWithFeeResult extends LockResult {
  /** The panel fee's hold, when one was asked for. */
  feeHoldId: string | null;
}

export type SettlementPosting =
  /** Post a hold in parts (`to`: an 0x address or `treasury`; a part to the hold's owner is a release). */
  | { type: 'resolve'; holdId: string; parts: Array<{ to: string; amount: WireAmount }> }
  /** Release a whole hold to its owner. */
  | { type: 'void'; holdId: string }
  /** Open a new USDC hold (e.g. re-hold what stays of an eligibility stake after a slash). */
  | { type: 'hold'; owner: string; kind: LedgerHoldKind; amount: WireAmount; mandate?: string }
  /** Mint reward tokens (OCT). */
  | { type: 'mint'; to: string; amount: WireAmount };

/**
 * A hold a delegate's message takes for its owner names the owner's mandate (docs/agents.md "Mandates"):
 * the ledger checks the mandate's limits in the hold's own transaction.
 */
export interface Mandated {
  mandate?: string;
}

/**
 * Within a milestone of a contract with milestones (docs/protocol.md §6a): `milestone:<i>` prefixes the
 * ids of the step's holds and operations (`<contractId>:milestone:<i>:…`), so every milestone's bonds,
 * fees and batches are its own; the holds still belong to the contract.
 */
export interface Scoped {
  scope?: string;
}

export interface SettleInput extends Scoped {
  contractId: string;
  /** Names this batch within the contract, e.g. `settlement`, `match-refund`, `tally`. */
  step: string;
  postings: SettlementPosting[];
  /**
   * The contract's last batch: afterwards every hold of the contract still open is released to its
   * owner (`<holdId>:stray`), so no hold outlives its contract whatever a failed and retried workflow
   * task did before it (workflows/contract/activity-proxies.ts).
   */
  final?: boolean;
}

export interface SettleResult {
  /** The ledger operation id of each posting, in order (`<contractId>:<step>:<index>`). */
  opIds: string[];
  /** True when the whole batch had already been applied (a retry). */
  replayed: boolean;
}

/** An agent of the Backup Agent registry: its free eligibility stake and the part its seats hold. */
export interface EligibleAgentWire {
  address: string;
  stake: WireAmount;
  seated: WireAmount;
}

export interface LedgerActivities {
  /** Holds the Client's Escrowed Funds: hold `<contractId>:escrow`. */
  lockEscrow(
    input: { contractId: string; client: string; amount: WireAmount; panelFee?: PanelFeeInput } & Mandated,
  ): Promise<LockWithFeeResult>;
  /** Holds a Worker Stake: hold `<contractId>:stake:<worker>`, one per caller in an open tender. */
  lockStake(
    input: { contractId: string; worker: string; amount: WireAmount } & Mandated,
  ): Promise<LockResult>;
  /** Holds a Dispute Bond or a BA bond: hold `<contractId>:<kind>:<party>` (a bond of "0" holds only the fee). */
  lockBond(
    input: {
      contractId: string;
      kind: 'dispute-bond' | 'ba-bond';
      party: string;
      amount: WireAmount;
      panelFee?: PanelFeeInput;
    } & Mandated &
      Scoped,
  ): Promise<LockWithFeeResult>;
  /**
   * Holds an Appeal Bond: hold `<contractId>:appeal-bond:<party>`, of the ledger's kind
   * `dispute-bond` (a bond a party posts to contest an outcome).
   */
  lockAppealBond(
    input: { contractId: string; party: string; amount: WireAmount; panelFee?: PanelFeeInput } & Mandated &
      Scoped,
  ): Promise<LockWithFeeResult>;
  /** Adds to an agent's BA Eligibility Stake: hold `eligibility:<address>:lock:<key>` (key: the request's idempotency key). */
  lockEligibility(input: { address: string; amount: WireAmount; key: string }): Promise<LockResult>;
  /** Releases `amount` of the agent's free eligibility stake (all of it when omitted). */
  unlockEligibility(input: {
    address: string;
    amount?: WireAmount;
    key: string;
  }): Promise<{ released: WireAmount }>;
  /** Applies every posting of one settlement step in one atomic batch: op ids `<contractId>:<step>:<index>`. */
  settle(input: SettleInput): Promise<SettleResult>;
  /** The Backup Agent registry: agents whose eligibility stake, free and seated, is at least `minStake`. */
  listEligibleAgents(input: { minStake: WireAmount }): Promise<EligibleAgentWire[]>;
}
