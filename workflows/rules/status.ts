// The contract statuses of docs/protocol.md §4 and the transitions between them.

export const CONTRACT_STATUSES = [
  'created',
  'matched',
  'under-review',
  'disputed',
  'resolved',
  'settled-fully-met',
  'settled-partially-met',
  'settled-none-met',
  'cancelled-by-client',
  'cancelled-unmatched',
  'cancelled-withdrawn',
  'cancelled-absent',
  'cancelled-by-operator',
] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/**
 * `by-operator`: a money step the ledger refused for good was resolved by the operator releasing
 * every hold of the contract to its owner (docs/operations.md). Reachable from every open status.
 */
export const CANCELLATION_REASONS = ['by-client', 'unmatched', 'withdrawn', 'absent', 'by-operator'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];
export type CancelledStatus = `cancelled-${CancellationReason}`;

export const SETTLEMENT_TIERS = ['fully-met', 'partially-met', 'none-met'] as const;
export type SettlementTier = (typeof SETTLEMENT_TIERS)[number];
export type SettledStatus = `settled-${SettlementTier}`;

export type TerminalStatus = SettledStatus | CancelledStatus;

const TRANSITIONS: { readonly [S in ContractStatus]: readonly ContractStatus[] } = {
  created: ['matched', 'cancelled-by-client', 'cancelled-unmatched', 'cancelled-by-operator'],
  // With milestones (docs/protocol.md §6a) a Worker absent on a later milestone ends a contract whose
  // earlier milestones settled: its summary is a settled status.
  matched: [
    'under-review',
    'cancelled-withdrawn',
    'cancelled-absent',
    'settled-partially-met',
    'settled-none-met',
    'cancelled-by-operator',
  ],
  // privacy-preserving: a dispute → disputed; approval or no action → resolved. Standard: tally → resolved.
  // A change request (privacy-preserving) sends the delivery back to the Worker: `matched` again.
  'under-review': ['matched', 'disputed', 'resolved', 'cancelled-by-operator'],
  disputed: ['resolved', 'cancelled-by-operator'],
  // A panel's tally stays `resolved` through the appeal window; an appeal goes back to `disputed`.
  // With milestones a resolved milestone that is not the last one hands over to the next: `matched`.
  resolved: [
    'matched',
    'disputed',
    'settled-fully-met',
    'settled-partially-met',
    'settled-none-met',
    'cancelled-by-operator',
  ],
  'settled-fully-met': [],
  'settled-partially-met': [],
  'settled-none-met': [],
  'cancelled-by-client': [],
  'cancelled-unmatched': [],
  'cancelled-withdrawn': [],
  'cancelled-absent': [],
  'cancelled-by-operator': [],
};

export function isTerminal(status: ContractStatus): status is TerminalStatus {
  return TRANSITIONS[status].length === 0;
}

export function canTransition(from: ContractStatus, to: ContractStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: ContractStatus, to: ContractStatus): void {
  if (!canTransition(from, to)) throw new Error(`status transition ${from} → ${to} is not allowed`);
}

export function cancelledStatus(reason: CancellationReason): CancelledStatus {
  return `cancelled-${reason}`;
}

/** The reason a `cancelled-<reason>` status names; null for any other status. */
export function cancellationReasonOf(status: ContractStatus): CancellationReason | null {
  return CANCELLATION_REASONS.find((reason) => cancelledStatus(reason) === status) ?? null;
}

export function settledStatus(tier: SettlementTier): SettledStatus {
  return `settled-${tier}`;
}
