// End-to-end helpers: agents driving the service through the SDK over real HTTP.
import assert from 'node:assert/strict';
import { createAgentClient, randomPrivateKey, AgentApiError, type AgentClient } from '../../sdk/typescript';
import type { ServiceHarness } from '../support/service';
import { contractBody, FUNDS, MATERIALS } from '../support/fixtures';

// test/cluster (another branch's area) still imports these from here.
export { FUNDS, PRICE } from '../support/fixtures';
export { eventually } from '../support/eventually';

export function agent(h: ServiceHarness, key: string = randomPrivateKey()): AgentClient & { key: string } {
  return Object.assign(createAgentClient({ baseUrl: h.url(), privateKey: key }), { key });
}

/** An agent's `[USDC available, USDC held, OCT available, OCT held]`, as the API answers them. */
export async function balancesOf(a: AgentClient): Promise<[bigint, bigint, bigint, bigint]> {
  const { balances } = await a.getBalances();
  return [balances.USDC.available, balances.USDC.held, balances.OCT.available, balances.OCT.held].map(
    BigInt,
  ) as [bigint, bigint, bigint, bigint];
}

/** The same agent on the API's current URL (after a restart the port changes). */
export function reconnect(h: ServiceHarness, a: { key: string }) {
  return agent(h, a.key);
}

export async function fund(h: ServiceHarness, address: string, amount: bigint = FUNDS): Promise<void> {
  await h.operator().deposit({ address, amount: amount.toString() });
}

/** The fixtures' contract body with encrypted supplementary materials (their key goes to the vault). */
export function fixedTerms(worker?: string, now = Date.now()) {
  return contractBody(worker, { supplementaryMaterials: MATERIALS }, now);
}

export const DELIVERY = {
  uri: 'https://files.example/readme-fr.enc',
  sha256: 'cd'.repeat(32),
  key: 'delivery-secret-key',
  summary: 'translated',
  confidence: 0.9,
};

export async function expectApiError(
  promise: Promise<unknown>,
  status: number,
  code?: string,
): Promise<AgentApiError> {
  const err = await promise.then(
    () => assert.fail(`expected HTTP ${status}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof AgentApiError, `expected an AgentApiError, got ${String(err)}`);
  assert.equal(err.status, status, `${err.code}: ${err.message}`);
  if (code !== undefined) assert.equal(err.code, code);
  return err;
}

/**
 * The accounts every contract shares: the treasury's [USDC available, USDC held, OCT available, OCT held]
 * and the OCT minted so far. On the cluster the e2e suites share one ledger (test/cluster/e2e.cluster.ts),
 * so a suite compares these before and after its contract: `sharedAccountsChange(h, before)`.
 */
export async function sharedAccounts(h: ServiceHarness): Promise<bigint[]> {
  const { USDC, OCT } = await h.ledger().balances('treasury');
  const minted = (await h.ledger().audit()).assets.OCT?.mint ?? 0n;
  return [USDC.available, USDC.held, OCT.available, OCT.held, minted];
}

/** What `sharedAccounts` moved since `before`, in the same order. */
export async function sharedAccountsChange(h: ServiceHarness, before: bigint[]): Promise<bigint[]> {
  return (await sharedAccounts(h)).map((value, i) => value - before[i]!);
}
