// A message the rules refuse: its failure type (the kind of refusal; the API maps it to a status),
// a machine code for the event log, the offending field, and a message for the caller.
import { RetryState } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { FailureType, MANDATE_REFUSAL_CODES } from '../definitions';
import { FAILURE_TYPES, type MandateRefusalCode, type RejectionDetails } from '../definitions';

export interface Rejection extends RejectionDetails {
  type: FailureType;
  message: string;
}

export function rejection(type: FailureType, code: string, message: string, field?: string): Rejection {
  return { type, code, message, ...(field === undefined ? {} : { field }) };
}

export function toFailure(r: Rejection): ApplicationFailure {
  const details: RejectionDetails = { code: r.code, ...(r.field === undefined ? {} : { field: r.field }) };
  return ApplicationFailure.nonRetryable(r.message, r.type, details);
}

/** Throws the rejection as the failure an Update caller receives. */
export function reject(r: Rejection): never {
  throw toFailure(r);
}

/** The rejection carried by a failure a handler threw, or null for any other error. */
export function rejectionOf(error: unknown): Rejection | null {
  if (!(error instanceof ApplicationFailure)) return null;
  const type = error.type as FailureType;
  if (!FAILURE_TYPES.includes(type)) return null;
  const details = (error.details?.[0] ?? {}) as Partial<RejectionDetails>;
  return rejection(type, details.code ?? 'rejected', error.message, details.field);
}

/**
 * The domain error an activity raised: a scheduled activity's arrives as the cause of an
 * ActivityFailure, a local activity's (activity-proxies.ts) as the ApplicationFailure itself.
 */
function activityError(error: unknown): ApplicationFailure | null {
  if (error instanceof ActivityFailure) return error.cause instanceof ApplicationFailure ? error.cause : null;
  return error instanceof ApplicationFailure ? error : null;
}

/**
 * A local activity's domain error wrapped as a scheduled one's arrives (an ActivityFailure around it),
 * for a handler that rethrows it: unwrapped, an ApplicationFailure of a known type would read as a
 * rule's rejection of the message (rejectionOf) rather than a step that failed.
 */
export function asActivityFailure(error: unknown, activityType: string): unknown {
  if (!(error instanceof ApplicationFailure)) return error;
  return new ActivityFailure(
    error.message,
    activityType,
    undefined,
    RetryState.NON_RETRYABLE_FAILURE,
    undefined,
    error,
  );
}

/** The ledger refused for lack of funds (InsufficientFunds): nothing was locked. */
export function isInsufficientFunds(error: unknown): boolean {
  return activityFailureType(error) === 'InsufficientFunds';
}

/** The ApplicationFailure type of an activity's non-retryable domain error (e.g. `InsufficientFunds`). */
export function activityFailureType(error: unknown): string | null {
  return activityError(error)?.type ?? null;
}

export function activityFailureMessage(error: unknown): string {
  return (
    activityError(error)?.message ??
    (error instanceof ActivityFailure && error.cause ? error.cause.message : String(error))
  );
}

/**
 * The ledger refused a delegate's hold under its mandate (MandateRefused): a 403 with the mandate's code
 * (`mandate_exceeded`, `mandate_expired`, `mandate_revoked`); nothing was held. Null for any other error.
 */
export function mandateRefusal(error: unknown): (Rejection & { code: MandateRefusalCode }) | null {
  const failure = activityError(error);
  if (failure?.type !== 'MandateRefused') return null;
  const code = (failure.details?.[0] as { code?: string } | undefined)?.code as MandateRefusalCode;
  if (!MANDATE_REFUSAL_CODES.includes(code)) return null;
  return { ...rejection(FailureType.Forbidden, code, failure.message), code };
}
