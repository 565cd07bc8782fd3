// Milestones (docs/protocol.md §3 "Milestones", §6a), as pure rules: a plan's validation, each
// milestone's amount and share of the Worker Stake, and the contract's final status summarising the
// milestones' outcomes, and the ledger split of one milestone's settlement.
import {
  MAX_MILESTONES,
  MAX_MILESTONE_TITLE_LENGTH,
  MIN_MILESTONES,
  milestonePlanSchema,
} from './contract-body';
import type { MachineCheck } from './machine-checks';
import type { VerificationMode } from './contract-kinds';
import { fieldErrors, type FieldError } from './field-errors';
import { HOLD_OWNER, splitHold, type HoldSplit } from './holds';
import { BPS_DENOMINATOR, bps } from './money';
import type { ProtocolParams } from './params';
import { settlementFor, type Settlement } from './settlement';
import type { Verdict } from './verdicts';
import { isTerminal, type CancelledStatus, type ContractStatus, type SettledStatus } from './status';

export { MAX_MILESTONES, MAX_MILESTONE_TITLE_LENGTH, MIN_MILESTONES, milestonePlanSchema };
/** Every milestone's shares together: the whole price. */
const WHOLE = Number(BPS_DENOMINATOR);

/** A criterion as the terms keep it (contract-terms' Criterion; named here so the two modules do not import each other). */
interface Criterion {
  text: string;
  check?: MachineCheck;
}

export interface Milestone {
  title: string;
  acceptanceCriteria: Criterion[];
  shareBps: number;
  /** Epoch milliseconds; `review` null only in standard mode. */
  deadlines: { delivery: number; review: number | null };
}

export type MilestonePlanResult = { ok: true; milestones: Milestone[] } | { ok: false; errors: FieldError[] };

const criterionOf = (c: string | Criterion): Criterion => (typeof c === 'string' ? { text: c } : c);

/**
 * Checks a plan against the contract it belongs to: its shape, shares summing to 10000, and deadlines
 * in order — withdrawal < the first delivery < its review ≤ the next delivery < … (a milestone without
 * a review, in standard mode, hands over at its delivery). Every error names its field under `milestones`.
 */
export function validateMilestonePlan(
  raw: unknown,
  contract: { withdrawal: number; verificationMode: VerificationMode },
): MilestonePlanResult {
  const parsed = milestonePlanSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error.issues, ['milestones']) };
  const milestones: Milestone[] = parsed.data.map((m) => ({
    title: m.title,
    acceptanceCriteria: m.acceptanceCriteria.map(criterionOf),
    shareBps: m.shareBps,
    deadlines: {
      delivery: Date.parse(m.deadlines.delivery),
      review: m.deadlines.review === undefined ? null : Date.parse(m.deadlines.review),
    },
  }));
  const errors = [...shareErrors(milestones), ...deadlineErrors(milestones, contract)];
  return errors.length === 0 ? { ok: true, milestones } : { ok: false, errors };
}

function shareErrors(milestones: readonly Milestone[]): FieldError[] {
  const sum = milestones.reduce((total, m) => total + m.shareBps, 0);
  return sum === WHOLE ? [] : [{ field: 'milestones', message: `shareBps must sum to ${WHOLE}, got ${sum}` }];
}

function deadlineErrors(
  milestones: readonly Milestone[],
  contract: { withdrawal: number; verificationMode: VerificationMode },
): FieldError[] {
  const errors: FieldError[] = [];
  // The instant the previous step ends: the withdrawal deadline, then each milestone's review (or delivery).
  let previous = { at: contract.withdrawal, name: 'deadlines.withdrawal', strict: true };
  milestones.forEach((m, i) => {
    const field = (name: string) => `milestones.${i}.deadlines.${name}`;
    const { delivery, review } = m.deadlines;
    const inOrder = previous.strict ? delivery > previous.at : delivery >= previous.at;
    if (!inOrder) {
      errors.push({
        field: field('delivery'),
        message: `must be ${previous.strict ? 'after' : 'at or after'} ${previous.name}`,
      });
    }
    if (review === null) {
      if (contract.verificationMode === 'privacy-preserving') {
        errors.push({ field: field('review'), message: 'is required in privacy-preserving mode' });
      }
      previous = { at: delivery, name: field('delivery'), strict: true };
      return;
    }
    if (review <= delivery)
      errors.push({ field: field('review'), message: `must be after ${field('delivery')}` });
    previous = { at: review, name: field('review'), strict: false };
  });
  return errors;
}

/**
 * `total` split by the shares (summing to 10000): each part floor(total × shareBps / 10000), the last the
 * remainder, so the parts always sum to `total`.
 */
export function splitByShares(total: bigint, shares: readonly number[]): bigint[] {
  if (shares.reduce((sum, s) => sum + s, 0) !== WHOLE) throw new RangeError(`shares must sum to ${WHOLE}`);
  const parts = shares.slice(0, -1).map((s) => bps(total, s));
  return [...parts, total - parts.reduce((sum, p) => sum + p, 0n)];
}

/** Each milestone's amount of the price (docs/protocol.md §3): the last takes the remainder. */
export function milestoneAmounts(
  price: bigint,
  milestones: readonly Pick<Milestone, 'shareBps'>[],
): bigint[] {
  return splitByShares(
    price,
    milestones.map((m) => m.shareBps),
  );
}

/** Each milestone's share of the Worker Stake (held to the end, slashed by share): the same rounding. */
export function milestoneStakeShares(
  workerStake: bigint,
  milestones: readonly Pick<Milestone, 'shareBps'>[],
): bigint[] {
  return splitByShares(
    workerStake,
    milestones.map((m) => m.shareBps),
  );
}

/** How one milestone ended: delivered or not, its own terminal status, and what it paid the Worker. */
export interface MilestoneOutcome {
  delivered: boolean;
  status: SettledStatus | CancelledStatus;
  payment: bigint;
}

/**
 * The contract's final status (docs/protocol.md §6a): `settled-fully-met` only when every milestone was;
 * `cancelled-*` (the first milestone's reason) only when nothing was delivered; `settled-none-met` when
 * none paid anything; otherwise `settled-partially-met`.
 */
export function milestonesFinalStatus(outcomes: readonly MilestoneOutcome[]): ContractStatus {
  if (outcomes.length === 0) throw new RangeError('a contract with milestones has at least one outcome');
  for (const o of outcomes) {
    if (!isTerminal(o.status))
      throw new RangeError(`a milestone's outcome must be terminal, got ${o.status}`);
  }
  if (!outcomes.some((o) => o.delivered)) {
    const first = outcomes[0]!.status;
    if (!first.startsWith('cancelled-')) throw new RangeError('an undelivered first milestone is cancelled');
    return first;
  }
  if (outcomes.every((o) => o.status === 'settled-fully-met')) return 'settled-fully-met';
  if (outcomes.every((o) => o.payment === 0n)) return 'settled-none-met';
  return 'settled-partially-met';
}

/** What one milestone's settlement draws on: the holds still open and the milestone's parts of them. */
export interface MilestoneHolds {
  /** The escrow still held (this milestone's amount and every later one's). */
  escrowHeld: bigint;
  /** The Worker Stake still held (this milestone's share and every later one's). */
  stakeHeld: bigint;
  /** This milestone's amount of the price and share of the stake. */
  amount: bigint;
  stakeShare: bigint;
  disputeBond: bigint | null;
}

export interface MilestoneSettlement {
  /** The milestone's own settlement (docs/protocol.md §7a on its amount and stake share): its events. */
  settlement: Settlement;
  /** The same on the whole holds: the rest of each back to its owner, to be held again. */
  ledgerHolds: HoldSplit[];
  /** What is held again for the later milestones. */
  escrowRest: bigint;
  stakeRest: bigint;
}

/**
 * One milestone's settlement (docs/protocol.md §6a): §7a applied to its amount and its share of the
 * Worker Stake (paid pro-rata to its Criteria Met, the rest refunded, slashes from its share only);
 * what the later milestones still need goes back to its owner in the same split and is held again.
 */
export function milestoneSettlementFor(
  h: MilestoneHolds,
  criteriaMet: readonly Verdict[],
  params: ProtocolParams,
): MilestoneSettlement {
  if (h.amount > h.escrowHeld || h.stakeShare > h.stakeHeld)
    throw new RangeError("a milestone's part exceeds what is held");
  const settlement = settlementFor(
    { escrow: h.amount, workerStake: h.stakeShare, disputeBond: h.disputeBond },
    criteriaMet,
    params,
  );
  const escrowRest = h.escrowHeld - h.amount;
  const stakeRest = h.stakeHeld - h.stakeShare;
  const rest = { escrow: escrowRest, workerStake: stakeRest, disputeBond: 0n } as const;
  const ledgerHolds = settlement.holds.map((split) =>
    splitHold(split.hold, split.amount + rest[split.hold], [
      ...split.parts,
      { role: HOLD_OWNER[split.hold], amount: rest[split.hold] },
    ]),
  );
  return { settlement, ledgerHolds, escrowRest, stakeRest };
}

/**
 * The deadlines a milestone starts with (docs/protocol.md §6a): its own when it starts on time — by the
 * previous milestone's review deadline (its delivery deadline in standard mode) — else both moved later
 * by as much as it started late (a panel, an appeal window, change requests ran long), so the Worker
 * always has the working time the plan gave it, and never more.
 */
export function milestoneStartDeadlines(
  previous: Pick<Milestone, 'deadlines'>,
  m: Pick<Milestone, 'deadlines'>,
  now: number,
): { delivery: number; review: number | null } {
  const plannedStart = previous.deadlines.review ?? previous.deadlines.delivery;
  const shift = Math.max(0, now - plannedStart);
  return {
    delivery: m.deadlines.delivery + shift,
    review: m.deadlines.review === null ? null : m.deadlines.review + shift,
  };
}
