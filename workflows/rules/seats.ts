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

/** A contract waiting for a full panel, as the waitlist keeps it (docs/protocol.md §8 "Waiting for seats"). */
export interface WaitingEntry {
  contractId: string;
  /** When it started waiting for this panel. */
  since: number;
  panelSize: number;
  /** Never drawn for it: the Client, the Worker, a first panel, silent members. */
  exclude: readonly string[];
}

/** Whether the registry can seat a full panel for `entry` now: enough drawable agents it does not exclude. */
export function canSeat(
  entry: Pick<WaitingEntry, 'panelSize' | 'exclude'>,
  registry: readonly RegistryEntry[],
  params: Pick<ProtocolParams, 'baBond' | 'baEligibilityStake'>,
): boolean {
  const excluded = new Set(entry.exclude.map((a) => a.toLowerCase()));
  const drawable = registry.filter((e) => isDrawable(e, params) && !excluded.has(e.address.toLowerCase()));
  return drawable.length >= entry.panelSize;
}

/** Waiting order: who started waiting first, then the contract ID. */
export function waitsBefore(a: Pick<WaitingEntry, 'since' | 'contractId'>, b: typeof a): boolean {
  return a.since < b.since || (a.since === b.since && a.contractId < b.contractId);
}

/**
 * The first waiting contract the registry can seat now, in waiting order, or null. Nobody jumps the
 * queue: a contract is seated only when none that started waiting before it could be (`ahead`), and one
 * that cannot be seated (its exclusions leave too few agents) does not hold up those behind it.
 */
export function firstSeatable(
  waitlist: readonly WaitingEntry[],
  registry: readonly RegistryEntry[],
  params: Pick<ProtocolParams, 'baBond' | 'baEligibilityStake'>,
): WaitingEntry | null {
  const ordered = [...waitlist].sort((a, b) => (waitsBefore(a, b) ? -1 : waitsBefore(b, a) ? 1 : 0));
  return ordered.find((e) => canSeat(e, registry, params)) ?? null;
}

/** A seatable waiting contract that started waiting before `me`, which must be seated first; or null. */
export function seatableAhead(
  me: Pick<WaitingEntry, 'since' | 'contractId'>,
  waitlist: readonly WaitingEntry[],
  registry: readonly RegistryEntry[],
  params: Pick<ProtocolParams, 'baBond' | 'baEligibilityStake'>,
): WaitingEntry | null {
  return firstSeatable(
    waitlist.filter((e) => e.contractId !== me.contractId && waitsBefore(e, me)),
    registry,
    params,
  );
}
