// What the contract-facing helpers (prechecks, the seat wake, the 404 of an unknown id) read of the
// API's context: api/deps.ts ApiContext extends it, so they stand below the assembly.
import type { Ledger } from '../../store/ledger';
import type { ProtocolParams } from '../../workflows/rules/params';
import type { ContractGateway } from './gateway';

export interface ContractContext {
  contracts: ContractGateway;
  ledger: Ledger;
  params: ProtocolParams;
}
