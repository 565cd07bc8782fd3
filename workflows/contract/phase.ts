// What every phase's state shares (docs/workflow.md "State protocol"): the pulse through which a phase's
// change reaches the main loop and the operator's view, the read-only face each phase shows the other
// modules, and funds held in the ledger.
import type { Address } from '../rules/address';
import type { ContractStatus } from '../rules/status';

/**
 * The contract-wide effects a phase's change calls for. `wake` (the main loop waits on the contract's
 * `revision`) and `publish` (observability.ts) are called exactly where the commands of the saved
 * histories have them: a wake or an upsert more would change a replayed history.
 */
export interface Pulse {
  /** The contract's status now. */
  status(): ContractStatus;
  /** The main loop must react to this change: it waits until the revision moves. */
  wake(): void;
  /** An operator-visible value changed: publish it at the loop's wait. */
  publish(): void;
  /** Every status change: checked against the rules' transition table; wakes and publishes. */
  transition(to: ContractStatus): void;
}

/** Arrays read-only too: the outside reads a list, it never pushes to it. */
type ReadOnlyField<V> = V extends readonly (infer E)[] ? readonly E[] : V;

/** A state as the other modules see it: each field read-only, each change through one of its named mutators. */
export type ReadOnly<T> = { readonly [K in keyof T]: ReadOnlyField<T[K]> };

export interface HeldFunds {
  amount: bigint;
  holdId: string;
}

/** A panel fee held (rules/panel-fee) and who paid it: returned to it when no panel decides. */
export interface HeldFee extends HeldFunds {
  payer: Address;
}
