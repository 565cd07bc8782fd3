// The app's single error mapping (docs/api.md "Errors"): ApiError / zod / Hono errors via toErrorResponse, plus
// Temporal's and the ledger's. A refused Update carries an ApplicationFailure whose `type` is one of
// workflows/definitions FailureType.
import {
  ServiceError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import {
  ApplicationFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/common';
import { LedgerError } from '../../store/ledger';
import type { FailureType, RejectionDetails } from '../../workflows/definitions';
import { errorBody, GENERIC_CODES, toErrorResponse, type ErrorBody } from '.';
import { VaultConflictError } from '../../store/vault/sqlite';
import { UNPROCESSED_UPDATE } from './unprocessed-update';

export interface MappedError {
  status: number;
  body: ErrorBody;
}

/** HTTP status for each failure type of a refused Update (docs/api.md "Errors"). */
const FAILURE_HTTP_STATUS: { readonly [T in FailureType]: number } = {
  BadInput: 400,
  Forbidden: 403,
  Conflict: 409,
  InsufficientFunds: 402,
  NotFound: 404,
};

/** Ledger codes, when the API calls ledger activities inline. */
const ledgerStatus: Record<string, number> = {
  InvalidOperation: 400,
  InsufficientFunds: 402,
  IdempotencyConflict: 409,
  HoldNotFound: 404,
  // A concurrent operation resolved the hold first (two processes' unlocks of one agent): a lost race.
  HoldAlreadyResolved: 409,
  // A delegate's hold beyond its mandate (details.code: mandate_exceeded, _expired, _revoked).
  MandateRefused: 403,
  MandateExists: 409,
};

/**
 * What the Temporal server itself fails an Update with (the failure's `type`; server/service/history/workflow/
 * update): never a refusal of the contract's, so not the caller's doing.
 */
const SERVER_UPDATE_FAILURES: Readonly<Record<string, MappedError>> = {
  // No worker processed it, and the gateway's sends again went the same way (api/errors/unprocessed-update.ts):
  // nothing happened, and the same message later may go through.
  [UNPROCESSED_UPDATE]: {
    status: 503,
    body: errorBody('temporal_unavailable', 'the contract did not take the message; retry'),
  },
  // Taken, and the contract closed before it finished.
  AcceptedUpdateCompletedWorkflow: {
    status: 409,
    body: errorBody('wrong_state', 'the contract closed before the message finished'),
  },
};

function isFailureType(type: string | undefined | null): type is FailureType {
  return typeof type === 'string' && type in FAILURE_HTTP_STATUS;
}

function fromApplicationFailure(failure: ApplicationFailure): MappedError | undefined {
  const status = isFailureType(failure.type)
    ? FAILURE_HTTP_STATUS[failure.type]
    : ledgerStatus[failure.type ?? ''];
  if (status === undefined) return undefined;
  const details = failure.details?.[0] as Partial<RejectionDetails> | undefined;
  const code = typeof details?.code === 'string' ? details.code : (GENERIC_CODES[status] ?? 'conflict');
  return { status, body: errorBody(code, failure.message, details) };
}

export function mapError(err: unknown): MappedError {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    const mapped = fromApplicationFailure(err.cause) ?? SERVER_UPDATE_FAILURES[err.cause.type ?? ''];
    if (mapped) return mapped;
  }
  if (err instanceof ApplicationFailure) {
    const mapped = fromApplicationFailure(err);
    if (mapped) return mapped;
  }
  if (err instanceof LedgerError && ledgerStatus[err.code] !== undefined) {
    return {
      status: ledgerStatus[err.code]!,
      body: errorBody(GENERIC_CODES[ledgerStatus[err.code]!]!, err.message, err.details),
    };
  }
  if (err instanceof WorkflowNotFoundError) {
    return { status: 404, body: errorBody('contract_not_found', 'no such contract') };
  }
  if (err instanceof WorkflowExecutionAlreadyStartedError) {
    return { status: 409, body: errorBody('contract_exists', 'a contract with this ID already exists') };
  }
  if (err instanceof VaultConflictError) {
    return {
      status: 409,
      // The vault's message names the record (key or content) and the contract, never a value.
      body: errorBody('key_conflict', err.message),
    };
  }
  if (err instanceof ServiceError || err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
    return {
      status: 503,
      body: errorBody('temporal_unavailable', 'the workflow service did not answer; retry'),
    };
  }
  return toErrorResponse(err);
}
