// The API's authentication parts, for the app assembly: signed requests (SPEC §12) and the operator token.
export type { Address } from './ethereum';
export type { NonceStore, NonceStoreOptions, SqliteNonceStoreOptions } from '../../store/nonces/sqlite';
export { SqliteNonceStore } from '../../store/nonces/sqlite';
export { PostgresNonceStore } from '../../store/nonces/postgres';
export type { PostgresPool, PostgresPoolOptions } from '../../store/postgres/pool';
export { openPostgresPool } from '../../store/postgres/pool';
export type { RequireSignatureOptions, SignedEnv, SignedVariables } from './require-signature';
export { requireSignature } from './require-signature';
export { MIN_OPERATOR_TOKEN_LENGTH, parseOperatorToken, requireOperatorToken } from './operator-token';
export type { RequestToVerify, SignatureFailureReason, VerifyResult } from './verify';
export { CLOCK_SKEW_SECONDS, checkRequestSignature, verifyRequest } from './verify';
export { MAX_SIGNATURE_LIFETIME_SECONDS } from './signature-base';
