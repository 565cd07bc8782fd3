// The three holds of a contract (escrow, worker stake, dispute bond): their amounts, and how a hold is
// split into role-tagged parts when it is released. A ledger batch is built from these parts.
import { assertAmount, bps } from './money';
import type { ProtocolParams } from './params';

/** Who a hold's money comes from or goes to in a split (events tag each part with it as `role`). */
export type HoldParty = 'client' | 'worker' | 'treasury';
/** One of a contract's three holds, as its events name them (the ledger's HoldKind is another set). */
export type ContractHold = 'escrow' | 'workerStake' | 'disputeBond';

/** Who posted each hold: a part to the owner is the hold (or its rest) going back. */
export const HOLD_OWNER: { readonly [H in ContractHold]: HoldParty } = {
  escrow: 'client',
  workerStake: 'worker',
  disputeBond: 'client',
};

/** One party's share of a hold split. */
export interface SplitPart {
  role: HoldParty;
  amount: bigint;
}

export interface HoldSplit {
  hold: ContractHold;
  owner: HoldParty;
  amount: bigint;
  /** Non-zero parts, one per role at most; they sum to `amount` exactly. */
  parts: SplitPart[];
}

/** Builds a hold's split, dropping zero parts, merging parts of one role, and checking the sum. */
export function splitHold(hold: ContractHold, amount: bigint, parts: readonly SplitPart[]): HoldSplit {
  assertAmount(amount, hold);
  const merged: SplitPart[] = [];
  for (const part of parts) {
    assertAmount(part.amount, `${hold} part to ${part.role}`);
    if (part.amount === 0n) continue;
    const same = merged.find((p) => p.role === part.role);
    if (same) same.amount += part.amount;
    else merged.push({ ...part });
  }
  const sum = merged.reduce((s, p) => s + p.amount, 0n);
  if (sum !== amount) throw new Error(`${hold} split sums to ${sum}, not the hold's ${amount}`);
  return { hold, owner: HOLD_OWNER[hold], amount, parts: merged };
}

/** The whole hold back to whoever posted it. */
export function returnHold(hold: ContractHold, amount: bigint): HoldSplit {
  return splitHold(hold, amount, [{ role: HOLD_OWNER[hold], amount }]);
}

/** A basis-point share to `to` (rounded down), the rest to `rest` (docs/protocol.md §2 rounding). */
export function splitByBps(
  hold: ContractHold,
  amount: bigint,
  basisPoints: number,
  to: HoldParty,
  rest: HoldParty,
): HoldSplit {
  const share = bps(amount, basisPoints);
  return splitHold(hold, amount, [
    { role: to, amount: share },
    { role: rest, amount: amount - share },
  ]);
}

/**
 * Worker Stake: workerStakeBps of the contract value (the price), rounded down, and never less than
 * minWorkerStake, so no match is free. An auction's bid bond is the stake of the quoted price.
 */
export function workerStakeFor(
  price: bigint,
  params: Pick<ProtocolParams, 'workerStakeBps' | 'minWorkerStake'>,
): bigint {
  const share = bps(price, params.workerStakeBps);
  return share > params.minWorkerStake ? share : params.minWorkerStake;
}

/** Dispute Bond: disputeBondBps of the Escrowed Funds, rounded down. */
export function disputeBondFor(escrow: bigint, params: ProtocolParams): bigint {
  return bps(escrow, params.disputeBondBps);
}

/** At an auction's match the escrow shrinks from the budget cap to the winning price; the rest is refunded. */
export function auctionMatchRefund(budget: bigint, price: bigint): { refund: bigint; escrow: bigint } {
  assertAmount(budget, 'budget');
  assertAmount(price, 'price');
  if (price > budget) throw new RangeError(`winning price ${price} exceeds the budget cap ${budget}`);
  return { refund: budget - price, escrow: price };
}
