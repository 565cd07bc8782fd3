// The ledger's public surface: open a store, run operations, read balances and holds.
export * from './types';
export * from './errors';
export { agentOwner, addressOf, MAX_AMOUNT } from './validate';
export { openLedger } from './open';
export { LedgerThreadExitedError } from './thread-ledger';
export type { LedgerConfig } from './open';
export type { PanelRegistry, VoteRecord, RowVote, WaitingContract } from './panels';
export type { Mandate, MandateLimits, MandateRegistry, MandateRole, MandateStanding } from './mandates';
export { MANDATE_DAY_MS, MANDATE_ROLES, mandateLapse } from './mandates';
