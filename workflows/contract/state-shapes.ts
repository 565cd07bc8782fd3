// The shapes of what a contract's state keeps beside its phases (state.ts): its terms as the workflow holds
// them, the escrow's state, a main-loop step's snapshot and the read model's bookkeeping.
import type { ContentRef, EscrowRefusal, VoteRowView } from '../definitions';
import type { FailureType } from '../definitions';
import type { ContractTerms } from '../rules/contract-terms';
import type { ContractStatus } from '../rules/status';
import type { Verdict } from '../rules/verdicts';
import type { HeldFunds } from './phase';

/** The terms as the workflow keeps them (WorkflowTermsWire decoded): ContractTerms, the materials reduced to a key-less reference. */
export type WorkflowTerms = Omit<ContractTerms, 'supplementaryMaterials'> & {
  supplementaryMaterials: ContentRef | null;
};

export type EscrowState =
  | { state: 'pending' }
  | ({ state: 'held' } & HeldFunds)
  | { state: 'refused'; failureType: FailureType; reason: EscrowRefusal; message: string };

/** What a failed step of the main loop may have changed before its money moved (needs-operator.ts). */
export interface Snapshot {
  status: ContractStatus;
  events: number;
  criteriaMet: Verdict[] | null;
  voteRows: VoteRowView[] | null;
  payment: bigint | null;
}

/** The read model's bookkeeping (read-model.ts), kept on the contract and changed only there. */
export interface ReadModelWrites {
  /** The state the last write carried (unchanged: no write). */
  key: string;
  /** The last version handed out. */
  version: number;
  /** The highest version the store answered, and how many events it then held. */
  confirmed: { version: number; events: number };
}
