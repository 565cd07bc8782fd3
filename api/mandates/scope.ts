// A mandate's roles and counterparties (docs/agents.md "Mandates"), checked before a delegate's message
// reaches its contract: the role the message needs (the Client's, the Worker's, a Backup Agent's) must be
// one the mandate allows, and the other party must be one of its counterparties when it names any. Its
// money limits are the ledger's to check (store/ledger/mandates.ts), in the hold's own transaction.
import type { UpdateDefinition } from '@temporalio/common';
import type { Ledger, MandateLimits, MandateRole } from '../../store/ledger';
import type { CallerInput, ContractInput, ContractView, MessageReceipt } from '../../workflows/definitions';
import type { ContractGateway } from '../contracts/gateway';
import { contractNotFound, forbidden } from '../errors';

/** The role each message needs; an appeal is the Client's or the Worker's, whichever the caller is. */
const ROLE_OF: Readonly<Record<string, MandateRole | 'party'>> = {
  accept: 'worker',
  decline: 'worker',
  withdraw: 'worker',
  deliver: 'worker',
  quote: 'worker',
  cancel: 'client',
  approve: 'client',
  dispute: 'client',
  award: 'client',
  revise: 'client',
  vote: 'backup-agent',
  appeal: 'party',
};

function refuseRole(role: MandateRole): never {
  throw forbidden(`the mandate does not allow acting as ${role}`, { role }, 'mandate_role');
}

function refuseCounterparty(other: string): never {
  throw forbidden(
    `the mandate does not allow contracting with ${other}`,
    { counterparty: other },
    'mandate_counterparty',
  );
}

function allows(limits: MandateLimits, role: MandateRole): boolean {
  return limits.roles === null || limits.roles.includes(role);
}

/** The role a message of the owner plays in this contract, and the party on the other side (null: none yet). */
function roleIn(view: ContractView, message: string, owner: string): [MandateRole, string | null] | null {
  const needed = ROLE_OF[message];
  if (needed === undefined) return null;
  const role: MandateRole = needed === 'party' ? (view.client === owner ? 'client' : 'worker') : needed;
  if (role === 'worker') return [role, view.client];
  if (role === 'client') return [role, view.worker];
  return [role, null];
}

/** Refuses a delegated creation its mandate does not cover: the Client's role, and the named Worker. */
export function checkCreationScope(limits: MandateLimits, worker: string | null | undefined): void {
  if (!allows(limits, 'client')) refuseRole('client');
  if (limits.counterparties === null) return;
  // An open tender or an auction matches whoever comes: with counterparties, only a direct award is covered.
  if (worker === null || worker === undefined) refuseCounterparty('any agent (an open tender or auction)');
  if (!limits.counterparties.includes(worker.toLowerCase())) refuseCounterparty(worker);
}

/** The gateway with every delegated message and creation checked against its mandate's roles and counterparties. */
export function mandateScoped(gateway: ContractGateway, ledger: Ledger): ContractGateway {
  const limitsOf = async (owner: string, delegate: string, mandate: string) => {
    const current = await ledger.mandates.newestFor(owner, delegate);
    // Revoked or replaced since the request was admitted: the ledger refuses its holds; nothing else is allowed.
    if (current?.id !== mandate || current.revokedAt !== null) {
      throw forbidden(`mandate ${mandate} was revoked`, { mandate }, 'mandate_revoked');
    }
    return current.limits;
  };
  return {
    ...gateway,
    create: async (input: ContractInput, summary: string) => {
      const d = input.delegation;
      if (d !== undefined) {
        const limits = await limitsOf(input.terms.client, d.delegate, d.mandate);
        checkCreationScope(limits, input.terms.worker);
      }
      return gateway.create(input, summary);
    },
    send: async <Arg>(
      contractId: string,
      update: UpdateDefinition<MessageReceipt, [Arg]>,
      arg: Arg,
      updateId?: string,
    ) => {
      const { caller, delegation } = arg as CallerInput;
      if (delegation !== undefined) {
        const limits = await limitsOf(caller, delegation.delegate, delegation.mandate);
        const view = await gateway.view(contractId);
        if (view === undefined) throw contractNotFound(contractId);
        const scope = roleIn(view, update.name, caller);
        if (scope !== null) {
          const [role, other] = scope;
          if (!allows(limits, role)) refuseRole(role);
          if (limits.counterparties !== null && other !== null && !limits.counterparties.includes(other))
            refuseCounterparty(other);
        }
      }
      return gateway.send(contractId, update, arg, updateId);
    },
  };
}
