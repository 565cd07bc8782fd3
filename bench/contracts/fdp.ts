// The FDP happy path through the HTTP API with the SDK (create -> accept -> deliver -> approve -> the
// settled workflow), between funded agent pairs: shared by the benchmarks that time it.
import type { Client } from '@temporalio/client';
import { contractWorkflowId } from '../../workflows/definitions';
import { agent, DELIVERY, fixedTerms, fund } from '../../test/e2e/support';
import type { ServiceHarness } from '../../test/support/service';

export type Agent = ReturnType<typeof agent>;
export interface Pair {
  client: Agent;
  worker: Agent;
}

/** A funded Client and Worker pair per job slot (agents are reused across contracts). */
export async function fundedPairs(h: ServiceHarness, slots: number): Promise<Pair[]> {
  const pairs = Array.from({ length: slots }, () => ({ client: agent(h), worker: agent(h) }));
  for (const { client, worker } of pairs) {
    await fund(h, client.address, 10n ** 15n);
    await fund(h, worker.address, 10n ** 15n);
  }
  return pairs;
}

/** Each call of the path by name, in order; the last waits for the settled workflow. */
export const FDP_CALLS = ['created', 'accept', 'deliver', 'approve', 'settled'] as const;

type Timer = <T>(call: (typeof FDP_CALLS)[number], run: () => Promise<T>) => Promise<T>;

/** One FDP contract from creation to its settled workflow, each call through `time`. */
export async function fdpContract(
  temporal: Client,
  { client, worker }: Pair,
  time: Timer = (_call, run) => run(),
): Promise<void> {
  const terms = fixedTerms(worker.address);
  const { contractId } = await time('created', () => client.createContract(terms));
  await time('accept', () => worker.accept(contractId));
  await time('deliver', () => worker.deliver(contractId, DELIVERY));
  await time('approve', () => client.approve(contractId));
  await time('settled', () => temporal.workflow.getHandle(contractWorkflowId(contractId)).result());
}
