// The failures an activity throws for work it can never do, non-retryable since a retry sends the
// same input: malformed input, a ledger rule broken (named by its code: `InsufficientFunds`, ...).
// Anything else (a database that is down) is thrown as is, so Temporal retries it.
import { ApplicationFailure } from '@temporalio/common';
import { LedgerError } from '../store/ledger';

export function invalid(field: string, problem: string): never {
  throw ApplicationFailure.nonRetryable(`${field}: ${problem}`, 'InvalidOperation');
}

/** Runs ledger or panel work: its domain errors and refused input become non-retryable failures. */
export async function asActivity<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LedgerError) {
      throw ApplicationFailure.create({
        message: error.message,
        type: error.code,
        nonRetryable: true,
        details: [error.details],
      });
    }
    if (error instanceof RangeError) invalid('input', error.message);
    throw error;
  }
}
