// The ledger's vocabulary: assets, accounts, operations, and what the read side returns.
// Amounts are integer minor units as bigint; the wire form (decimal strings) lives at the edges.
import type { MandateRegistry } from './mandates';
import type { PanelRegistry } from './panels';

export const ASSETS = ['USDC', 'OCT'] as const;
export type Asset = (typeof ASSETS)[number];

/**
 * How units of an asset enter the ledger: USDC is deposited from outside (and can be withdrawn);
 * OCT is minted as a reward and never leaves. Either way the asset's `mint` account is debited,
 * so every asset's balances still sum to zero.
 */
export const ASSET_ISSUANCE: Record<Asset, 'deposit' | 'mint'> = { USDC: 'deposit', OCT: 'mint' };

/** An account owner: an agent (`agent:<0x address, lowercase>`), the Treasury, or the asset's mint. */
export type Owner = `agent:0x${string}` | 'treasury' | 'mint';

/** The ledger's category of a hold (column hold_kind); a contract's holds map onto escrow, stake and dispute-bond. */
export const HOLD_KINDS = ['escrow', 'stake', 'dispute-bond', 'ba-bond', 'eligibility'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];

/** Money brought in from outside (USDC): debits the asset's mint account. */
export interface DepositOp {
  kind: 'deposit';
  id: string;
  asset: Asset;
  to: Owner;
  amount: bigint;
}

/** Money taken out of the system (USDC): credits the asset's mint account. */
export interface WithdrawOp {
  kind: 'withdraw';
  id: string;
  asset: Asset;
  from: Owner;
  amount: bigint;
}

export interface TransferOp {
  kind: 'transfer';
  id: string;
  asset: Asset;
  from: Owner;
  to: Owner;
  amount: bigint;
  contractId?: string;
}

/** A pending transfer: reserves `amount` of the owner's available balance until resolved or voided. */
export interface HoldOp {
  kind: 'hold';
  id: string;
  owner: Owner;
  asset: Asset;
  amount: bigint;
  holdKind: HoldKind;
  /** Required for every kind but `eligibility`, which belongs to no contract and must not carry one. */
  contractId?: string;
  /**
   * The mandate the hold is committed under (mandates.ts): checked and recorded in the hold's own
   * transaction, so the owner's delegate never commits beyond the mandate's limits.
   */
  mandate?: string;
}

/** One posting of a ResolveOp: an amount to an owner. */
export interface ResolvePart {
  to: Owner;
  amount: bigint;
}

/**
 * Posts a hold in parts; the parts must sum exactly to the hold. A part to the hold's owner is a release.
 * `contractId` tags the resulting postings (defaults to the hold's), e.g. an eligibility slice slashed
 * for a contract.
 */
export interface ResolveOp {
  kind: 'resolve';
  id: string;
  holdId: string;
  parts: ResolvePart[];
  contractId?: string;
}

/** Releases a whole hold back to its owner. */
export interface VoidOp {
  kind: 'void';
  id: string;
  holdId: string;
}

/** Creates reward tokens (OCT) out of the mint account. */
export interface MintOp {
  kind: 'mint';
  id: string;
  asset: Asset;
  to: Owner;
  amount: bigint;
  contractId?: string;
}

export type LedgerOp = DepositOp | WithdrawOp | TransferOp | HoldOp | ResolveOp | VoidOp | MintOp;
export type OpKind = LedgerOp['kind'];
/** An operation without its kind, as the single-operation methods take it. */
export type OpInput<K extends OpKind> = Omit<Extract<LedgerOp, { kind: K }>, 'kind'>;

export interface OpResult {
  id: string;
  kind: OpKind;
  /** True when this id had already been applied with the same fields: nothing moved this time. */
  replayed: boolean;
}

export interface Balance {
  /** Posted balance less open holds: what the owner can spend or lock. */
  available: bigint;
  /** Sum of the owner's open holds (eligibility stake included). */
  held: bigint;
}

export type Balances = Record<Asset, Balance>;

export interface Hold {
  id: string;
  owner: Owner;
  asset: Asset;
  amount: bigint;
  kind: HoldKind;
  contractId: string | null;
  status: 'open' | 'resolved';
  /** The operation that resolved (or voided) the hold, and where the money went (the owner = released). */
  resolution: { opId: string; parts: ResolvePart[] } | null;
  createdAt: string;
}

/**
 * One immutable transfer row. `posted` moves money between two accounts; `pending` opens a hold
 * (debit side only: its recipients are named when it resolves); `post` moves part of a hold to a
 * recipient; `void` releases part or all of a hold back to its owner.
 */
export interface Posting {
  seq: bigint;
  opId: string;
  index: number;
  type: 'posted' | 'pending' | 'post' | 'void';
  asset: Asset;
  debit: Owner;
  credit: Owner | null;
  amount: bigint;
  holdId: string | null;
  holdKind: HoldKind | null;
  contractId: string | null;
  createdAt: string;
}

export interface EligibleAgent {
  address: string;
  /** Free eligibility stake: what the agent can unlock or a new seat can hold. */
  stake: bigint;
  /** Eligibility stake held by the agent's open seats (its `ba-bond` holds). */
  seated: bigint;
}

export interface AuditReport {
  /** Per asset: the sum of every posted balance (always zero) and the mint's balance. */
  assets: Record<Asset, { sum: bigint; mint: bigint }>;
  accounts: number;
  transfers: number;
  openHolds: number;
}

export interface SeatInput {
  contractId: string;
  bond: bigint;
  /** Each seat: its owner, its hold id, and the prefix of the ids that rewrite the owner's eligibility holds. */
  seats: Array<{ owner: Owner; holdId: string; rewritePrefix: string }>;
}

export interface Ledger {
  deposit(op: OpInput<'deposit'>): Promise<OpResult>;
  withdraw(op: OpInput<'withdraw'>): Promise<OpResult>;
  transfer(op: OpInput<'transfer'>): Promise<OpResult>;
  hold(op: OpInput<'hold'>): Promise<OpResult>;
  resolve(op: OpInput<'resolve'>): Promise<OpResult>;
  voidHold(op: OpInput<'void'>): Promise<OpResult>;
  mint(op: OpInput<'mint'>): Promise<OpResult>;
  /** Applies every operation or none, in order; later operations see earlier ones (e.g. void then re-hold). */
  batch(ops: LedgerOp[]): Promise<OpResult[]>;

  /**
   * Seats a panel (store/ledger/seats.ts): per seat, `bond` of its owner's free eligibility stake
   * becomes the seat's hold, every seat or none. The free stake is read and taken in ONE transaction
   * that first locks the owners' accounts, so concurrent seatings of one agent queue on its account
   * and never conflict, and an unlock (which closes the same holds) can only take what a seat left free.
   * `short` names the owners whose free stake does not cover the bond (nothing is held).
   */
  seat(input: SeatInput): Promise<{ short: Owner[]; replayed: boolean }>;

  balances(owner: Owner): Promise<Balances>;
  getHold(id: string): Promise<Hold | undefined>;
  holdsByContract(contractId: string): Promise<Hold[]>;
  /** Every open hold that belongs to a contract (the reconciler's scan), oldest first. */
  openContractHolds(): Promise<Hold[]>;
  holdsOf(owner: Owner, filter?: { kind?: HoldKind; open?: boolean }): Promise<Hold[]>;
  postingsByContract(contractId: string): Promise<Posting[]>;
  /** Agents whose eligibility stake, free and seated, adds up to at least `minStake`, by address. */
  eligibleAgents(minStake: bigint): Promise<EligibleAgent[]>;
  /** The Backup Agent panel registry (open panel seats, vote rows), in the same database. */
  readonly panels: PanelRegistry;
  /** Mandates (what a delegate key may commit for its owner) and their commitments, in the same database. */
  readonly mandates: MandateRegistry;
  /** Recomputes every balance from the transfer rows and checks each invariant; throws if one fails. */
  audit(): Promise<AuditReport>;
  close(): Promise<void>;
}
