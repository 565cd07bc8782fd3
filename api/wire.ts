// Small conversions between ledger values and the wire (amounts as decimal strings).
import type { Balances } from '../activities/ledger';

export interface BalancesWire {
  address: string;
  balances: Record<'USDC' | 'OCT', { available: string; held: string }>;
}

/** A row of GET /contracts: what the search attributes tell, no terms. */
export interface ListedContract {
  contractId: string;
  status: string;
  contractCode: string | null;
  nextDeadline: string | null;
  createdAt: string;
  /** Auctions: how many bidders hold a live quote (QuoteCount, never their prices); null otherwise. */
  quoteCount: number | null;
}

export function balancesToWire(address: string, balances: Balances): BalancesWire {
  const side = (b: { available: bigint; held: bigint }) => ({
    available: b.available.toString(),
    held: b.held.toString(),
  });
  return { address, balances: { USDC: side(balances.USDC), OCT: side(balances.OCT) } };
}

/** 2500000n → "2.5" (USDC has 6 decimals), for human-readable summaries only. */
export function formatUsdc(amount: bigint): string {
  const whole = amount / 1_000_000n;
  const fraction = (amount % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
