// The panel fee (docs/protocol.md §8): whoever brings in a panel pays panelFeePerSeat for each seat, not
// returned — the Client of a standard-mode contract with its escrow, the disputer with its Dispute Bond,
// the appellant with its Appeal Bond. Seats are the registry's scarce resource, so pinning k of them
// costs at least k × panelFeePerSeat. The fee is held until the panel that serves it is tallied: each
// seated BA who voted gets an even share `floor(fee / seats)`; a silent BA's share and the rounding
// remainder go to the Treasury. A void round keeps the fee for the next panel; when no panel decides
// (the trusted arbiter, a cancellation) the fee goes back to its payer.
import type { Address } from './address';
import type { ProtocolParams } from './params';

export type PanelRound = 'panel' | 'appeal';

/** The fee for a panel of `seats` seats. */
export function panelFee(seats: number, params: Pick<ProtocolParams, 'panelFeePerSeat'>): bigint {
  if (!Number.isInteger(seats) || seats < 1) throw new RangeError('a panel has at least one seat');
  return params.panelFeePerSeat * BigInt(seats);
}

/** The hold of a round's fee: `<contractId>:panel-fee:<round>` (the first panel and its redraws share one). */
export function panelFeeHoldId(contractId: string, round: PanelRound): string {
  return `${contractId}:panel-fee:${round}`;
}

export interface FeeShare {
  to: Address | 'treasury';
  amount: bigint;
}

/**
 * A tallied panel's fee: `floor(fee / seats)` to each member who voted, the rest (silent seats'
 * shares and the rounding remainder) to the Treasury. Parts sum to `fee`; zero parts are left out.
 */
export function panelFeeShares(
  fee: bigint,
  members: readonly Address[],
  voters: ReadonlySet<Address>,
): FeeShare[] {
  if (fee < 0n) throw new RangeError('a fee is never negative');
  if (members.length === 0) throw new RangeError('a fee is paid to a panel');
  const share = fee / BigInt(members.length);
  const paid = members.filter((m) => voters.has(m));
  const shares: FeeShare[] = share > 0n ? paid.map((to) => ({ to, amount: share })) : [];
  const rest = fee - share * BigInt(shares.length);
  if (rest > 0n) shares.push({ to: 'treasury', amount: rest });
  return shares;
}
