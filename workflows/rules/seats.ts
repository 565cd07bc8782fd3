// Who can take a Backup Agent seat. A seat holds baBond of its agent's eligibility stake until its
// panel is tallied, so an agent is drawable only while its free stake (not held by a seat) covers
// another bond and its whole stake, free and seated, is at least the eligibility stake. Its weight in
// the draw is its free stake: one stake never backs more seats than it can pay for.
import { normalizeAddress, type Address } from './address';
import type { ProtocolParams } from './params';

export interface RegistryEntry {
  address: string;
  /** Free eligibility stake: what a new seat can hold and an unlock can release. */
  free: bigint;
  /** Eligibility stake held by the agent's open seats. */
  seated: bigint;
}

export function isDrawable(
  entry: RegistryEntry,
  params: Pick<ProtocolParams, 'baBond' | 'baEligibilityStake'>,
): boolean {
  return entry.free >= params.baBond && entry.free + entry.seated >= params.baEligibilityStake;
}

/** The draw's candidates: every drawable agent with its free stake as its weight. */
export function drawableAgents(
  registry: readonly RegistryEntry[],
  params: Pick<ProtocolParams, 'baBond' | 'baEligibilityStake'>,
): Array<{ address: Address; stake: bigint }> {
  return registry
    .filter((e) => isDrawable(e, params))
    .map((e) => ({ address: normalizeAddress(e.address), stake: e.free }));
}

/** How many more seats an agent's free stake can hold. */
export function seatsAffordable(free: bigint, baBond: bigint): bigint {
  return baBond > 0n ? free / baBond : 0n;
}

/**
 * The hold of an agent's seat on a contract's panel (first or appeal): `<contractId>:ba-bond:<address>`,
 * and `…:<n>` for a panel drawn after n void rounds (a voter of a void round may be drawn again).
 */
export function seatHoldId(contractId: string, agent: string, voidRounds = 0): string {
  const base = `${contractId}:ba-bond:${normalizeAddress(agent)}`;
  return voidRounds === 0 ? base : `${base}:${voidRounds}`;
}
