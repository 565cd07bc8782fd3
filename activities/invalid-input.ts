// The failure an activity throws for malformed input: non-retryable, since a retry sends the same input.
import { ApplicationFailure } from '@temporalio/common';

export function invalid(field: string, problem: string): never {
  throw ApplicationFailure.nonRetryable(`${field}: ${problem}`, 'InvalidOperation');
}
