// What each caller sees of a contract (SPEC §12): the parties (Client, Worker, drawn Backup Agents)
// the whole ContractView; anyone else the public view — what a bidder needs to decide on the work.
import type { ContractView } from '../workflows/definitions';

export type PartyRole = 'client' | 'worker' | 'backup-agent';

/** The caller's role in the contract, or null for a stranger. A direct award's named Worker is the Worker. */
export function roleOf(view: ContractView, caller: string | undefined): PartyRole | null {
  if (caller === undefined) return null;
  if (view.client === caller) return 'client';
  if (view.worker === caller) return 'worker';
  if (view.backupAgents.includes(caller as `0x${string}`)) return 'backup-agent';
  return null;
}

const PUBLIC_FIELDS = [
  'contractId',
  'status',
  'contractCode',
  'contractType',
  'awardMethod',
  'verificationMode',
  'taskDescription',
  'acceptanceCriteria',
  'price',
  'budget',
  'workerStake',
  'deadlines',
  'nextDeadline',
  'createdAt',
] as const satisfies readonly (keyof ContractView)[];

export type PublicContractView = Pick<ContractView, (typeof PUBLIC_FIELDS)[number]> & { view: 'public' };
export type PartyContractView = Omit<ContractView, 'created'> & { view: 'party'; role: PartyRole };
export type ContractViewFor = PublicContractView | PartyContractView;

export function publicView(view: ContractView): PublicContractView {
  const out = { view: 'public' } as Record<string, unknown>;
  for (const field of PUBLIC_FIELDS) out[field] = view[field];
  return out as PublicContractView;
}

export function partyView(view: ContractView, role: PartyRole): PartyContractView {
  const { created: _created, ...rest } = view;
  return { view: 'party', role, ...rest };
}

/** The party view for a party, the public view for anyone else. */
export function viewFor(view: ContractView, caller: string | undefined): ContractViewFor {
  const role = roleOf(view, caller);
  return role === null ? publicView(view) : partyView(view, role);
}
