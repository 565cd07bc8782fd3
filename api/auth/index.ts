// The API's authentication parts, for the app assembly: signed requests (docs/security.md) and the operator token.
export type { Address } from './ethereum';
export type { RequireSignatureOptions, SignedEnv, SignedVariables } from './require-signature';
export { requireSignature } from './require-signature';
export { MIN_OPERATOR_TOKEN_LENGTH, parseOperatorToken, requireOperatorToken } from './operator-token';
export type { RequestToVerify, SignatureFailureReason, VerifyResult } from './verify';
export { CLOCK_SKEW_SECONDS, checkRequestSignature, verifyRequest } from './verify';
export { MAX_SIGNATURE_LIFETIME_SECONDS } from './signature-base';
