// Panel seats in the ledger: a seat holds `bond` of its agent's eligibility stake as the contract's
// `ba-bond` hold `<contractId>:ba-bond:<address>`, so one stake backs no more seats than it can pay
// for, an unlock (which only touches `eligibility` holds) frees only the free part, and each seat's
// slashes come from its own hold. Seating a panel and unlocking a stake both rewrite the agent's
// eligibility holds (void them all, hold what stays); each is one atomic batch that fails whole if a
// hold it read was closed meanwhile, and then reads again (optimistic concurrency), so the two can
// never both take the same stake.
import { firstSeatable, seatHoldId, type RegistryEntry } from '../../workflows/rules/seats';
import { HoldAlreadyResolvedError } from './errors';
import type { Hold, Ledger, LedgerOp, Owner } from './types';
import { addressOf, agentOwner } from './validate';

/** Attempts at a batch whose holds another batch closed first, before giving up (retryable). */
const ATTEMPTS = 8;

/**
 * Runs `attempt` again while its batch loses a race to another batch over the same holds. The last
 * loss is rethrown as a plain Error so the activity is retried rather than failed for good.
 */
export async function retryingLostRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof HoldAlreadyResolvedError)) throw error;
      if (i >= ATTEMPTS) {
        throw new Error(`lost ${ATTEMPTS} races for the same holds: ${error.message}`, { cause: error });
      }
    }
  }
}

/** Void every one of `open` and hold `rest` (if any) again as eligibility stake: the ops of a carve. */
export function rewriteEligibility(
  owner: Owner,
  open: readonly Hold[],
  prefix: string,
  rest: bigint,
): LedgerOp[] {
  const ops: LedgerOp[] = open.map((h, i) => ({ kind: 'void', id: `${prefix}:${i}`, holdId: h.id }));
  if (rest > 0n) {
    ops.push({
      kind: 'hold',
      id: `${prefix}:rest`,
      owner,
      asset: 'USDC',
      amount: rest,
      holdKind: 'eligibility',
    });
  }
  return ops;
}

export type SeatResult =
  | { seated: true; replayed: boolean }
  /** Members whose free eligibility stake no longer covers the bond: nothing was held. */
  | { seated: false; short: string[] };

/**
 * Seats every member or none: per member, its eligibility holds are voided, `bond` held as the seat
 * and the rest held again as eligibility, read and written in one transaction under the members'
 * account locks (Ledger.seat), so seatings of one agent never conflict. A retry after success changes
 * nothing.
 */
export async function seatPanel(
  ledger: Ledger,
  contractId: string,
  members: readonly string[],
  bond: bigint,
  voidRounds = 0,
): Promise<SeatResult> {
  if (bond <= 0n) throw new RangeError('bond must be positive');
  const seats = members.map((member) => {
    const holdId = seatHoldId(contractId, member, voidRounds);
    return { owner: agentOwner(member), holdId, rewritePrefix: holdId.replace(':ba-bond:', ':seat:') };
  });
  const { short, replayed } = await ledger.seat({ contractId, bond, seats });
  if (short.length > 0) return { seated: false, short: short.map((o) => addressOf(o) ?? o) };
  return { seated: true, replayed };
}

/** The Backup Agent registry as the seat rules read it: agents with at least `minStake`, free and seated. */
export async function seatRegistry(ledger: Ledger, minStake: bigint): Promise<RegistryEntry[]> {
  return (await ledger.eligibleAgents(minStake)).map((a) => ({
    address: a.address,
    free: a.stake,
    seated: a.seated,
  }));
}

/** The first waiting contract the registry can seat now, in waiting order, or null. */
export async function nextSeatable(
  ledger: Ledger,
  terms: { baBond: bigint; baEligibilityStake: bigint },
): Promise<string | null> {
  const registry = await seatRegistry(ledger, terms.baEligibilityStake);
  return firstSeatable(await ledger.panels.waitlist(), registry, terms)?.contractId ?? null;
}
