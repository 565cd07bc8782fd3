// The reference Backup Agent: keeps its eligibility stake locked, and on each panel it is drawn onto
// votes once, criterion by criterion: the automatic verifier's verdict where the criterion carries a
// machine check, `unclear` where it does not (it reads no content: a real agent replaces `verdicts`
// with its own judgement of the delivery, which its seat lets it decrypt).
import type { AgentClient, ContractViewFor, Verdict } from '../sdk/typescript';
import { actOnEach, dueContracts, stepKey, type DoneSteps, type Log } from './runtime';

/** One verdict per criterion: the machine check's where there is one, else `unclear`. */
export function verdicts(contract: ContractViewFor): Verdict[] {
  const results = contract.view === 'party' ? (contract.autoVerification?.results ?? []) : [];
  return contract.acceptanceCriteria.map(
    (_, i) => results.find((r) => r.criterionIndex === i)?.verdict ?? 'unclear',
  );
}

/** Locks the eligibility stake the service asks for, unless this agent holds that much already. */
export async function ensureEligible(agent: AgentClient, log: Log): Promise<void> {
  const [requirements, { balances }] = await Promise.all([
    agent.getEligibilityRequirements(),
    agent.getBalances(),
  ]);
  if (BigInt(balances.USDC.held) >= BigInt(requirements.eligibilityStake)) return;
  const locked = await agent.lockEligibility(
    requirements.eligibilityStake,
    stepKey('backup-agent', 'eligibility', agent.address),
  );
  log('eligible', { locked: locked.locked });
}

export function backupAgentStep(agent: AgentClient, log: Log): (done: DoneSteps) => Promise<void> {
  return async (done) => {
    await actOnEach(await dueContracts(agent, 'backup-agent'), log, async (c) => {
      if (c.nextAction !== 'vote' || done.has('vote', c.contractId)) return;
      const contract = await agent.getContract(c.contractId);
      const votes = verdicts(contract);
      await agent.vote(c.contractId, votes, stepKey('backup-agent', 'vote', c.contractId));
      done.add('vote', c.contractId);
      log('voted', { contractId: c.contractId, votes });
    });
  };
}
