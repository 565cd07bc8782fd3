// A message a delegate sent for its owner (definitions.ts Delegation): the hold it takes names the
// mandate, and its events name the delegate beside the owner, the actor of record.
import type { Delegation } from '../definitions';

/** The delegation a message carries, when it is well formed (the API sets it; a Signal may carry anything). */
export function delegationOf(input: unknown): Delegation | null {
  const d = (input as { delegation?: Partial<Delegation> } | null | undefined)?.delegation;
  return typeof d?.mandate === 'string' && typeof d.delegate === 'string'
    ? { mandate: d.mandate, delegate: d.delegate }
    : null;
}

/** The `mandate` field of a hold's activity input: present only under a delegation. */
export function mandateOf(delegation: Delegation | null | undefined): { mandate?: string } {
  return delegation ? { mandate: delegation.mandate } : {};
}
