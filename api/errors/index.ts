// The JSON error shape (docs/api.md "Errors") and the mapping from thrown errors to it.
import { HTTPException } from 'hono/http-exception';
import { $ZodError } from 'zod/v4/core';
import {
  fieldErrorsFromZod,
  invalidFieldsMessage,
  type FieldError,
} from '../../workflows/rules/field-errors';

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 422 | 429 | 500 | 503;

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/** A rejection the API answers as it is: status, a stable machine `code`, a human message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** The code of a refusal that has no more specific one: the one table of generic codes (docs/api.md). */
export const GENERIC_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'insufficient_funds',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
};

/** One helper per error status; `code` defaults to the status's generic code. */
function errorHelper(status: ErrorStatus) {
  return (message: string, details?: unknown, code: string = GENERIC_CODES[status]!): ApiError =>
    new ApiError(status, code, message, details);
}

export const badRequest = errorHelper(400);
export const unauthorized = errorHelper(401);
export const insufficientFunds = errorHelper(402);
export const forbidden = errorHelper(403);
export const notFound = errorHelper(404);
export const conflict = errorHelper(409);
export const unprocessable = errorHelper(422);

/** The 404 for an id that names no contract, wherever it is found out. */
export function contractNotFound(id: string): ApiError {
  return notFound(`no contract ${id}`, undefined, 'contract_not_found');
}

/** A 400 whose message names the fields and whose details list each issue. */
export function invalidFields(errors: FieldError[]): ApiError {
  return badRequest(invalidFieldsMessage(errors), { fields: errors }, 'invalid_input');
}

/** A zod failure as a 400 naming its fields. */
export function fromZodError(error: $ZodError): ApiError {
  return invalidFields(fieldErrorsFromZod(error));
}

/**
 * `defaultHook` for OpenAPIHono / zod-validator: turns a failed validation into the §12 error
 * (the hook's own default answers zod's raw error object).
 */
export function validationHook(result: { success: boolean; error?: unknown }): void {
  if (!result.success && result.error instanceof $ZodError) throw fromZodError(result.error);
}

/**
 * Maps anything thrown by a handler to `{ status, body }`. Unknown errors become a bare 500: their
 * message may carry internals (SQL, file paths, stack), so it is never sent; log it at the caller.
 */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof ApiError) {
    return { status: err.status, body: errorBody(err.code, err.message, err.details) };
  }
  if (err instanceof $ZodError) {
    const apiError = fromZodError(err);
    return { status: apiError.status, body: errorBody(apiError.code, apiError.message, apiError.details) };
  }
  // Hono raises HTTPException itself, e.g. 400 "Malformed JSON in request body" from a json validator.
  if (err instanceof HTTPException && err.status >= 400 && err.status < 500) {
    const code = GENERIC_CODES[err.status] ?? 'bad_request';
    return { status: err.status, body: errorBody(code, err.message || code.replaceAll('_', ' ')) };
  }
  return { status: 500, body: errorBody('internal', 'internal error') };
}
