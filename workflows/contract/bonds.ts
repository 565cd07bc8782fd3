// Locking a caller's own money for its message: a hold refused for funds is a 402 with nothing locked.
// The Client's dispute and a party's appeal share one path: the party's bond and the panel fee it
// brings, held together in one batch or not at all.
import type { Delegation } from '../definitions';
import { FailureType } from '../definitions';
import type { Address } from '../rules/address';
import { toWire } from '../rules/money';
import { panelFee } from '../rules/panel-fee';
import type { LedgerActivities } from '../activity-interfaces';
import { messageLock } from './activity-proxies';
import { mandateOf } from './delegation';
import type { FeeRound } from './panel/state';
import type { HeldFunds } from './phase';
import {
  activityFailureMessage,
  asActivityFailure,
  isInsufficientFunds,
  mandateRefusal,
  reject,
  rejection,
} from './rejection';
import type { Contract } from './state';

/** Locks a hold for the caller, or refuses with InsufficientFunds (402), nothing locked. */
export async function lockOrRefuse<T extends { holdId: string }>(
  what: string,
  amount: bigint,
  lock: () => Promise<T>,
): Promise<T> {
  try {
    return await lock();
  } catch (error) {
    const refused = mandateRefusal(error);
    if (refused !== null) return reject(refused);
    // A local lock's (activity-proxies.ts messageLock) other failures fail the step, as a scheduled one's.
    if (!isInsufficientFunds(error)) throw asActivityFailure(error, `lock ${what}`);
    return reject(
      rejection(
        FailureType.InsufficientFunds,
        'insufficient_funds',
        `the ${what} of ${amount} could not be locked: ${activityFailureMessage(error)}`,
      ),
    );
  }
}

/** A bond's lock, as both ledger calls take it. */
type BondLock = Parameters<LedgerActivities['lockAppealBond']>[0];

/** Each bond's round: its name, the panel it brings, the phase's flag while it locks, its ledger call. */
const ROUNDS = {
  panel: {
    what: 'Dispute Bond',
    panelSize: (c: Contract) => c.params.baPanelSize,
    locking: (c: Contract, on: boolean) => c.review.bondLocking(on),
    lock: ({ contractId, ...rest }: BondLock) =>
      messageLock(true).lockBond({ contractId, kind: 'dispute-bond', ...rest }),
  },
  appeal: {
    what: 'Appeal Bond',
    panelSize: (c: Contract) => c.params.appealPanelSize,
    locking: (c: Contract, on: boolean) => c.appeal.bondLocking(on),
    lock: (input: BondLock) => messageLock(true).lockAppealBond(input),
  },
} as const;

/**
 * A party's bond and the panel fee it brings — the Client's Dispute Bond with the first panel's fee, or
 * the Appeal Bond with the appeal panel's — for a message only one caller can pass (the Client's
 * dispute, the one appeal), so it cannot race (activity-proxies.ts): both held in one batch or neither
 * (402), the phase's `locking` flag set while they lock (the deadline it stops waits); nothing is held
 * for a zero amount. The fee, once held, is the panel phase's; the bond, if any, is returned.
 */
export async function lockPartyBond(
  c: Contract,
  round: FeeRound,
  party: Address,
  amount: bigint,
  delegation: Delegation | null,
): Promise<HeldFunds | null> {
  const { what, panelSize, locking, lock } = ROUNDS[round];
  const fee = panelFee(panelSize(c), c.params);
  locking(c, true);
  let feeHoldId: string | null;
  let holdId: string | null;
  try {
    if (amount === 0n && fee === 0n) return null;
    ({ holdId, feeHoldId } = await lockOrRefuse(`${what} and panel fee`, amount + fee, () =>
      lock({
        contractId: c.contractId,
        party,
        amount: toWire(amount),
        ...mandateOf(delegation),
        ...(fee > 0n ? { panelFee: { round, amount: toWire(fee) } } : {}),
      }),
    ));
  } finally {
    locking(c, false);
  }
  if (feeHoldId !== null) c.panel.feeHeld(round, { amount: fee, holdId: feeHoldId, payer: party });
  return amount > 0n ? { amount, holdId } : null;
}
