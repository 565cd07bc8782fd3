// The reference Worker: accepts the direct awards that name it and delivers each matched contract
// through its delivery handler (./delivery-handler.ts), before the contract's deadlines.
import type { AgentClient } from '../api/sdk';
import type { DeliveryHandler } from './delivery-handler';
import { actOnEach, dueContracts, stepKey, type Log } from './runtime';

export function workerStep(agent: AgentClient, handler: DeliveryHandler, log: Log): () => Promise<void> {
  return async () => {
    await actOnEach(await dueContracts(agent, 'worker'), log, async (c) => {
      if (c.nextAction === 'accept') {
        const view = await agent.accept(c.contractId, stepKey('worker', 'accept', c.contractId));
        log('accepted', { contractId: c.contractId, status: view.status });
      } else if (c.nextAction === 'deliver') {
        const contract = await agent.getContract(c.contractId);
        const materialsKey =
          contract.view === 'party' && contract.materials !== null
            ? (await agent.getMaterialsKey(c.contractId)).key
            : null;
        log('working', { contractId: c.contractId, deadline: c.actionDeadline });
        const delivery = await handler({ contract, materialsKey });
        const view = await agent.deliver(c.contractId, delivery, stepKey('worker', 'deliver', c.contractId));
        log('delivered', { contractId: c.contractId, status: view.status, sha256: delivery.sha256 });
      }
    });
  };
}
