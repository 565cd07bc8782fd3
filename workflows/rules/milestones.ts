// Milestones (docs/protocol.md §3 "Milestones", §6a), as pure rules: a plan's validation, each
// milestone's amount and share of the Worker Stake, and the contract's final status summarising the
// milestones' outcomes. Not yet accepted at creation: the workflow that works them comes next.
import { z } from 'zod';
import { acceptanceCriteriaSchema, instantSchema } from './contract-body';
import type { Criterion } from './contract-terms';
import type { VerificationMode } from './contract-kinds';
import { fieldErrors, type FieldError } from './field-errors';
import { BPS_DENOMINATOR, bps } from './money';
import { isTerminal, type CancelledStatus, type ContractStatus, type SettledStatus } from './status';

export const MIN_MILESTONES = 2;
export const MAX_MILESTONES = 10;
export const MAX_MILESTONE_TITLE_LENGTH = 200;
/** Every milestone's shares together: the whole price. */
const WHOLE = Number(BPS_DENOMINATOR);

const milestoneSchema = z
  .object({
    title: z
      .string({ error: 'must be a string' })
      .max(MAX_MILESTONE_TITLE_LENGTH, `must be at most ${MAX_MILESTONE_TITLE_LENGTH} characters`)
      .refine((s) => s.trim() !== '', 'must not be empty'),
    acceptanceCriteria: acceptanceCriteriaSchema,
    shareBps: z
      .number({ error: 'must be an integer number of basis points' })
      .int('must be an integer number of basis points')
      .min(1, 'must be at least 1')
      .max(WHOLE, `must be at most ${WHOLE}`),
    deadlines: z.object({ delivery: instantSchema, review: instantSchema.optional() }).strict(),
  })
  .strict();

/** The `milestones` field as a body carries it (deadlines as RFC 3339 instants). */
export const milestonePlanSchema = z
  .array(milestoneSchema)
  .min(MIN_MILESTONES, `must hold ${MIN_MILESTONES} to ${MAX_MILESTONES} milestones`)
  .max(MAX_MILESTONES, `must hold ${MIN_MILESTONES} to ${MAX_MILESTONES} milestones`);

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
