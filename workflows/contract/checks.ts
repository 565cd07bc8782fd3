// The checks every message's validation is made of (docs/protocol.md §5–§8): caller, existence, role,
// state, deadline, verdict lists. Each phase's validators.ts puts its messages' rules together from
// these. A check returns the first broken rule, or null; it reads the state and never changes it, so
// the validators serve as Update validators, as the Signal path's checks, and as re-checks after a wait.
import { FailureType, type CallerInput } from '../definitions';
import { isAddress, type Address } from '../rules/address';
import { isBeforeDeadline } from '../rules/deadlines';
import type { ContractStatus } from '../rules/status';
import { VERDICTS, type Verdict } from '../rules/verdicts';
import { rejection, type Rejection } from './rejection';
import type { Contract } from './state';

export type Check = () => Rejection | null;

export function firstBroken(...checks: Check[]): Rejection | null {
  for (const check of checks) {
    const broken = check();
    if (broken !== null) return broken;
  }
  return null;
}

/** The caller's address, lowercase; null when the message carries none. */
export function callerOf(input: unknown): Address | null {
  const caller = (input as Partial<CallerInput> | null | undefined)?.caller;
  return isAddress(caller) ? (caller.toLowerCase() as Address) : null;
}

export const callerIsAddress =
  (input: unknown): Check =>
  () =>
    callerOf(input) === null
      ? rejection(FailureType.BadInput, 'bad_caller', 'caller must be an address (0x + 40 hex)', 'caller')
      : null;

export const exists =
  (c: Contract): Check =>
  () =>
    c.created
      ? null
      : rejection(FailureType.NotFound, 'not_created', `contract ${c.contractId} does not exist`);

export const callerIs =
  (c: Contract, input: unknown, role: 'client' | 'worker'): Check =>
  () => {
    const expected = role === 'client' ? c.terms.client : c.match.worker;
    return callerOf(input) === expected
      ? null
      : rejection(
          FailureType.Forbidden,
          `not_${role}`,
          `only the contract's ${role === 'client' ? 'Client' : 'Worker'} may do this`,
        );
  };

export const statusIs =
  (c: Contract, expected: ContractStatus): Check =>
  () =>
    c.status === expected && c.decision === null
      ? null
      : rejection(
          FailureType.Conflict,
          'wrong_state',
          c.decision === null
            ? `the contract is ${c.status}, not ${expected}`
            : `the contract is ${c.status} and closing`,
        );

export const before =
  (deadline: number | null, name: string): Check =>
  () =>
    deadline !== null && isBeforeDeadline(Date.now(), deadline)
      ? null
      : rejection(FailureType.Conflict, 'late', `the ${name} deadline has passed`);

/** One verdict per criterion, each `met`, `not met` or `unclear`. */
export function verdictList(value: unknown, criteria: number, field: string): Rejection | null {
  const bad = (message: string) => rejection(FailureType.BadInput, 'invalid_input', message, field);
  if (!Array.isArray(value)) return bad(`${field} must be an array of verdicts`);
  if (value.length !== criteria) {
    return bad(`${field} must hold one verdict per criterion (${criteria}), got ${value.length}`);
  }
  const wrong = value.findIndex((v) => !VERDICTS.includes(v as Verdict));
  return wrong === -1 ? null : bad(`${field}[${wrong}] must be one of ${VERDICTS.join(', ')}`);
}
