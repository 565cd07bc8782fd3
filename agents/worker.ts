// The reference Worker: accepts the direct awards that name it and delivers each matched contract
// through its delivery handler (./delivery-handler.ts), before the contract's deadlines. After a
// change request it delivers again (the handler sees the request, note included, in `revisions`).
import type { AgentClient } from '../sdk/typescript';
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
        // Each round has its own idempotency key: a redelivery is a new step, not a retry of the first.
        const round = contract.revisionCount;
        log(round === 0 ? 'working' : 'reworking', {
          contractId: c.contractId,
          deadline: c.actionDeadline,
          round,
        });
        const delivery = await handler({ contract, materialsKey });
        const action = round === 0 ? 'deliver' : `deliver-r${round}`;
        const view = await agent.deliver(c.contractId, delivery, stepKey('worker', action, c.contractId));
        log('delivered', { contractId: c.contractId, status: view.status, sha256: delivery.sha256, round });
      }
    });
  };
}
