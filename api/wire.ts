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
  /** When its durable record was written (closed contracts); null while it is open. */
  closedAt: string | null;
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
