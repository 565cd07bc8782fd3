// Reading and stating USDC balances in tests: one shape, `{ available, held }` or `[available, held]`.
import type { Balances } from '../../store/ledger';

export interface Balance {
  available: bigint;
  held: bigint;
}

/** A USDC balance as the ledger answers it: `b(available, held)`. */
export const b = (available: bigint, held = 0n): Balance => ({ available, held });

/** An agent's USDC `[available, held]`, read from a harness's ledger. */
export async function usdc(
  h: { balances(address: string): Promise<Balances> },
  who: string | { address: string },
): Promise<[bigint, bigint]> {
  const { USDC } = await h.balances(typeof who === 'string' ? who : who.address);
  return [USDC.available, USDC.held];
}
