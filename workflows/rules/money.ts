// Amounts: integer minor units as bigint in code, canonical decimal strings on the wire (docs/protocol.md §2).
import { z } from 'zod';

export const BPS_DENOMINATOR = 10_000n;

/**
 * At most 18 digits: every amount stays below 10^18, so it fits a signed 64-bit ledger column with
 * room for sums (10^18 minor units is 10^12 USDC).
 */
export const MAX_AMOUNT_DIGITS = 18;

/** A canonical non-negative integer decimal string: no sign, no decimals, no leading zeros. */
export const amountSchema = z
  .string({ error: 'must be a decimal string of minor units (e.g. "2500000")' })
  .max(MAX_AMOUNT_DIGITS, `must have at most ${MAX_AMOUNT_DIGITS} digits`)
  .regex(/^(0|[1-9][0-9]*)$/, 'must be a non-negative integer decimal string of minor units (e.g. "2500000")')
  .transform((s) => BigInt(s));

/** Like amountSchema, but zero is refused. */
export const positiveAmountSchema = amountSchema.refine((n) => n > 0n, 'must be greater than 0');

export function fromWire(amount: string): bigint {
  const parsed = amountSchema.safeParse(amount);
  if (!parsed.success) throw new RangeError(`invalid amount "${amount}": ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export function toWire(amount: bigint): string {
  assertAmount(amount, 'amount');
  return amount.toString();
}

/** The basis-point share of an amount, rounded down. */
export function bps(amount: bigint, basisPoints: number | bigint): bigint {
  assertAmount(amount, 'amount');
  const b = BigInt(basisPoints);
  if (b < 0n || b > BPS_DENOMINATOR) throw new RangeError(`basis points must be in [0, 10000], got ${b}`);
  return (amount * b) / BPS_DENOMINATOR;
}

/** floor(amount × numerator / denominator) for 0 ≤ numerator ≤ denominator, denominator > 0. */
export function ratio(amount: bigint, numerator: number, denominator: number): bigint {
  assertAmount(amount, 'amount');
  if (!Number.isInteger(numerator) || !Number.isInteger(denominator) || denominator <= 0) {
    throw new RangeError(`ratio needs integers with denominator > 0, got ${numerator}/${denominator}`);
  }
  if (numerator < 0 || numerator > denominator) {
    throw new RangeError(`ratio numerator must be in [0, ${denominator}], got ${numerator}`);
  }
  return (amount * BigInt(numerator)) / BigInt(denominator);
}

export function assertAmount(amount: bigint, name: string): void {
  if (typeof amount !== 'bigint') throw new TypeError(`${name} must be a bigint`);
  if (amount < 0n) throw new RangeError(`${name} must not be negative, got ${amount}`);
}

/** 2500000n → "2.5" (USDC has 6 decimals), for human-readable summaries only. */
export function formatUsdc(amount: bigint): string {
  const whole = amount / 1_000_000n;
  const fraction = (amount % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
