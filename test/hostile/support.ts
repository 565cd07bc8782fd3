// Helpers of the hostile-agent tests (docs/security.md): the honest flow through the API after an attack,
// exact USDC balances, and what Temporal holds of a contract's run.
import assert from 'node:assert/strict';
import { contractWorkflowId } from '../../workflows/definitions';
import type { AppHarness } from '../support/service';
import { call } from '../api/support';
import { contractBody, FUNDS, newAgent, type TestAgent } from '../support/fixtures';

/** Agents funded with FUNDS each. */
export async function fundedAgents(h: AppHarness, count: number): Promise<TestAgent[]> {
  const agents = Array.from({ length: count }, newAgent);
  for (const a of agents) await h.fund(a.address, FUNDS);
  return agents;
}

/** The Client creates a privacy-preserving contract from `overrides`; its ID. */
export async function created(h: AppHarness, client: TestAgent, overrides: Record<string, unknown>) {
  const res = await call(h.app, client, 'POST', '/contracts', {
    body: contractBody(undefined, { verificationMode: 'privacy-preserving', ...overrides }),
  });
  assert.equal(res.status, 201, res.text);
  return res.json.contractId as string;
}

/** The matched Worker delivers, the Client approves: the contract ends settled-fully-met. */
export async function deliverAndApprove(h: AppHarness, id: string, worker: TestAgent, client: TestAgent) {
  const delivered = await call(h.app, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { uri: 'https://x.example/d.enc', sha256: 'cd'.repeat(32), key: 'delivery-key' },
  });
  assert.equal(delivered.status, 200, delivered.text);
  assert.equal(delivered.json.status, 'under-review');
  const approved = await call(h.app, client, 'POST', `/contracts/${id}/approve`, { body: {} });
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.json.status, 'settled-fully-met');
}

/** The contract's open ledger holds (none once it is terminal). */
export async function openHolds(h: AppHarness, id: string) {
  return (await h.ledger.holdsByContract(id)).filter((x) => x.status === 'open');
}

/** How many events the contract's run has written to its Temporal history. */
export async function historyLength(h: AppHarness, id: string): Promise<number> {
  const described = await h.env.client.workflow.getHandle(contractWorkflowId(id)).describe();
  return described.historyLength;
}

/** Runs `task` for each of `items`, at most `concurrency` at a time; the results in order. */
export async function pool<T, R>(items: readonly T[], concurrency: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}

/** How many answers had each HTTP status and error code, e.g. { '201': 10, '409 quote_limit': 2490 }. */
export function tally(answers: readonly { status: number; json?: { error?: { code?: string } } }[]) {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.json?.error?.code === undefined ? String(a.status) : `${a.status} ${a.json.error.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
