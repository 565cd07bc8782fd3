// An agent's BA Eligibility Stake (docs/protocol.md §8) in the ledger: locked as `eligibility` holds,
// released by voiding them all and holding again what stays. Shared by the ledger activities and the
// API's /eligibility routes, so both lock and unlock the same way. Operation ids come from the caller's
// key, so a repeat with the same key answers the same and moves nothing twice.
import { InsufficientFundsError } from './errors';
import { retryingLostRaces, rewriteEligibility } from './seats';
import type { Ledger, Owner } from './types';

function addressPart(owner: Owner): string {
  return owner.slice('agent:'.length);
}

/** Adds `amount` to the agent's stake: hold `eligibility:<address>:lock:<key>`. */
export async function lockEligibility(
  ledger: Ledger,
  owner: Owner,
  amount: bigint,
  key: string,
): Promise<{ holdId: string; replayed: boolean }> {
  const holdId = `eligibility:${addressPart(owner)}:lock:${key}`;
  const result = await ledger.hold({ id: holdId, owner, asset: 'USDC', amount, holdKind: 'eligibility' });
  return { holdId, replayed: result.replayed };
}

/**
 * Releases `amount` of the agent's eligibility stake (all of it when undefined): every open
 * eligibility hold is voided and what stays is held again, in one batch. Operation ids are
 * `eligibility:<address>:unlock:<key>:<n>` (the re-hold `...:rest`), so a retry finds the batch
 * done and answers the same. Only free stake unlocks: a seat's part is its own `ba-bond` hold.
 */
export async function unlockEligibility(
  ledger: Ledger,
  owner: Owner,
  wanted: bigint | undefined,
  key: string,
): Promise<bigint> {
  const prefix = `eligibility:${addressPart(owner)}:unlock:${key}`;
  const released = async () => {
    const holds = await ledger.holdsOf(owner, { kind: 'eligibility' });
    const voided = holds.filter((h) => h.resolution?.opId.startsWith(`${prefix}:`));
    const rest = holds.find((h) => h.id === `${prefix}:rest`)?.amount ?? 0n;
    return { done: voided.length > 0, released: voided.reduce((s, h) => s + h.amount, 0n) - rest };
  };
  const before = await released();
  if (before.done) return before.released;
  // A seat drawn meanwhile rewrites the same holds: the batch that loses reads them again.
  await retryingLostRaces(async () => {
    const open = await ledger.holdsOf(owner, { kind: 'eligibility', open: true });
    const total = open.reduce((s, h) => s + h.amount, 0n);
    const amount = wanted ?? total;
    if (amount > total) {
      throw new InsufficientFundsError(
        owner,
        'USDC',
        amount,
        total,
        `${owner} has a free eligibility stake of ${total}, cannot unlock ${amount}`,
      );
    }
    if (total > 0n) await ledger.batch(rewriteEligibility(owner, open, prefix, total - amount));
  });
  return (await released()).released;
}
