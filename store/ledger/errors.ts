// Domain errors of the ledger. Each has a stable `code` that callers (activities, the API) map on.

export type LedgerErrorCode =
  | 'InvalidOperation'
  | 'InsufficientFunds'
  | 'IdempotencyConflict'
  | 'HoldNotFound'
  | 'HoldAlreadyResolved'
  | 'PartsMismatch'
  | 'MandateRefused'
  | 'MandateExists'
  | 'InvariantViolation';

export abstract class LedgerError extends Error {
  abstract readonly code: LedgerErrorCode;
  /** JSON-safe facts about the failure (amounts as decimal strings). */
  readonly details: Record<string, string>;

  constructor(message: string, details: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** Bad input; `field` names the offending field (e.g. `ops[2].parts[0].amount`). */
export class InvalidOperationError extends LedgerError {
  readonly code = 'InvalidOperation';
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`, { field });
  }
}

export class InsufficientFundsError extends LedgerError {
  readonly code = 'InsufficientFunds';
  constructor(
    owner: string,
    asset: string,
    needed: bigint,
    available: bigint,
    message = `${owner} has ${available} ${asset} available, needs ${needed}`,
  ) {
    super(message, {
      owner,
      asset,
      needed: needed.toString(),
      available: available.toString(),
    });
  }
}

export class IdempotencyConflictError extends LedgerError {
  readonly code = 'IdempotencyConflict';
  constructor(id: string) {
    super(`operation ${id} was already applied with different fields`, { id });
  }
}

export class HoldNotFoundError extends LedgerError {
  readonly code = 'HoldNotFound';
  constructor(holdId: string) {
    super(`no hold ${holdId}`, { holdId });
  }
}

export class HoldAlreadyResolvedError extends LedgerError {
  readonly code = 'HoldAlreadyResolved';
  constructor(holdId: string, resolvedBy: string) {
    super(`hold ${holdId} was already resolved by ${resolvedBy}`, { holdId, resolvedBy });
  }
}

export class PartsMismatchError extends LedgerError {
  readonly code = 'PartsMismatch';
  constructor(holdId: string, holdAmount: bigint, partsSum: bigint) {
    super(`parts of hold ${holdId} sum to ${partsSum}, the hold is ${holdAmount}`, {
      holdId,
      holdAmount: holdAmount.toString(),
      partsSum: partsSum.toString(),
    });
  }
}

/** Why a mandate refuses a hold; also the API's error code. */
export type MandateRefusal = 'mandate_exceeded' | 'mandate_expired' | 'mandate_revoked';

/** A hold its mandate does not allow: revoked, expired, or beyond one of its limits (`details.limit`). */
export class MandateRefusedError extends LedgerError {
  readonly code = 'MandateRefused';
  constructor(refusal: MandateRefusal, message: string, details: Record<string, string> = {}) {
    super(message, { code: refusal, ...details });
  }
}

/** An owner grants a delegate a second mandate while the first is live: it revokes the first, then grants. */
export class MandateExistsError extends LedgerError {
  readonly code = 'MandateExists';
  constructor(id: string, delegate: string) {
    super(`${delegate} already holds live mandate ${id} from this owner: revoke it first`, {
      code: 'mandate_exists',
      mandate: id,
    });
  }
}

export class InvariantViolationError extends LedgerError {
  readonly code = 'InvariantViolation';
  constructor(readonly problems: string[]) {
    super(`ledger invariants violated: ${problems.join('; ')}`);
  }
}
