// The operator's activities as the workflows call them (activities/operator-activities.ts): the release
// of a stuck contract's holds, and the hold reconciler's pass.

/** An open hold whose contract is closed, as the reconciler reports it. */
export interface StrandedHoldWire {
  holdId: string;
  contractId: string;
  owner: string;
  kind: string;
  amount: string;
  createdAt: string;
}

export interface OperatorActivities {
  /** The operator's `release`: every open hold of the contract back to its owner. */
  releaseContractHolds(input: { contractId: string }): Promise<{ released: number }>;
  /** The reconciler's pass: reports the holds of closed contracts and, with `release`, releases them. */
  reconcileHolds(input: { release: boolean }): Promise<{ stranded: StrandedHoldWire[] }>;
}
