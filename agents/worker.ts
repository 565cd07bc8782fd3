// The reference Worker: accepts the direct awards that name it and delivers each matched contract
// through its delivery handler (./delivery-handler.ts), before the contract's deadlines. After a
// change request it delivers again (the handler sees the request, note included, in `revisions`); a
// contract with milestones it delivers milestone by milestone (the view is the current milestone's).
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
        // Each milestone and round has its own idempotency key: the next milestone's delivery or a
        // redelivery is a new step, not a retry of the one before.
        const round = contract.revisionCount;
        const milestone = contract.currentMilestone ?? null;
        log(round === 0 ? 'working' : 'reworking', {
          contractId: c.contractId,
          deadline: c.actionDeadline,
          milestone,
          round,
        });
        const delivery = await handler({ contract, materialsKey });
        const action = [
          'deliver',
          ...(milestone === null ? [] : [`m${milestone}`]),
          ...(round === 0 ? [] : [`r${round}`]),
        ].join('-');
        const view = await agent.deliver(c.contractId, delivery, stepKey('worker', action, c.contractId));
        log('delivered', {
          contractId: c.contractId,
          status: view.status,
          sha256: delivery.sha256,
          milestone,
          round,
        });
      }
    });
  };
}
