// End-to-end helpers: agents driving the service through the SDK over real HTTP.
import assert from 'node:assert/strict';
import { createAgentClient, randomPrivateKey, AgentApiError, type AgentClient } from '../../api/sdk';
import type { ServiceHarness } from '../support/service';

export const HOUR = 3_600_000;
export const FUNDS = 10_000_000n;
export const PRICE = 2_500_000n;

export function agent(h: ServiceHarness, key: string = randomPrivateKey()): AgentClient & { key: string } {
  return Object.assign(createAgentClient({ baseUrl: h.url(), privateKey: key }), { key });
}

/** The same agent on the API's current URL (after a restart the port changes). */
export function reconnect(h: ServiceHarness, a: { key: string }) {
  return agent(h, a.key);
}

export async function fund(h: ServiceHarness, address: string, amount: bigint = FUNDS): Promise<void> {
  await h.operator().deposit({ address, amount: amount.toString() });
}

export function fixedTerms(worker?: string, now = Date.now()) {
  const at = (hours: number) => new Date(now + hours * HOUR).toISOString();
  return {
    contractType: 'fixed' as const,
    awardMethod: worker === undefined ? ('open' as const) : ('direct' as const),
    ...(worker === undefined ? { verificationMode: 'privacy-preserving' as const } : { worker }),
    taskDescription: 'Translate the attached README into French.',
    acceptanceCriteria: ['every section translated', 'code blocks untouched'],
    supplementaryMaterials: {
      uri: 'https://files.example/readme.enc',
      sha256: 'ab'.repeat(32),
      key: 'materials-secret-key',
    },
    amount: PRICE.toString(),
    deadlines: { match: at(1), withdrawal: at(2), delivery: at(3), review: at(4) },
  };
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

/** Polls until `check` passes (visibility and settlement are asynchronous). */
export async function eventually<T>(
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) assert.fail(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
