// Small conversions between ledger values and the wire (amounts as decimal strings).
import type { z } from '@hono/zod-openapi';
import type { Balances } from '../../store/ledger';
import type { listedContractSchema } from './schemas';

export interface BalancesWire {
  address: string;
  balances: Record<'USDC' | 'OCT', { available: string; held: string }>;
}

/** A row of GET /contracts: what the search attributes tell, no terms. */
export type ListedContract = z.infer<typeof listedContractSchema>;

export function balancesToWire(address: string, balances: Balances): BalancesWire {
  const side = (b: { available: bigint; held: bigint }) => ({
    available: b.available.toString(),
    held: b.held.toString(),
  });
  return { address, balances: { USDC: side(balances.USDC), OCT: side(balances.OCT) } };
}
