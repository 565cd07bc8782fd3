// The load scenario of `npm run test:cluster`: N contracts at once through every API URL given, each agent
// pair on its own contract. Two scripts: FDP from creation to settled-fully-met (2 in 3), and FDP cancelled by
// the Client before the Worker accepts (1 in 3). Calls that meet a dead API or a restarting Temporal server
// (no answer, 5xx, a key a killed API still holds, a signature that expired in a queue) are retried on the next API with the same
// Idempotency-Key, as an SDK user would.
import assert from 'node:assert/strict';
import { AgentApiError, createAgentClient, createOperatorClient, randomPrivateKey } from '../../api/sdk';
import { DELIVERY, fixedTerms, FUNDS, PRICE } from '../e2e/support';

// Generous: 300 contracts at once on 2 shared cores, through a Temporal restart and a killed API's
// 120 s idempotency lease, may leave one call unanswered for minutes. Each outcome is still asserted exactly.
const RETRY_FOR_MS = 600_000;
const SETTLE_WITHIN_MS = 900_000;

export interface LoadOptions {
  urls: string[];
  operatorToken: string;
  contracts: number;
  /** Called after each contract's step, with how many contracts have passed it. */
  onProgress?: (step: 'created' | 'accepted' | 'ended', count: number) => void;
}

export interface ContractOutcome {
  contractId: string;
  expected: 'settled-fully-met' | 'cancelled-by-client';
  status: string;
  client: string;
  worker: string;
}

export interface LoadResult {
  seconds: number;
  outcomes: ContractOutcome[];
  /** Milliseconds per call name, retries included. */
  calls: Map<string, number[]>;
  retries: number;
}

/**
 * No answer (the API died), a 5xx (Temporal restarting), or 409 `idempotency_in_progress`: a killed API had
 * reserved this Idempotency-Key and its lease has not run out yet (api/idempotency.ts), so the same key is
 * tried again until the lease ends and another API takes it over.
 */
function retriable(err: unknown): boolean {
  if (!(err instanceof AgentApiError)) return true;
  if (err.status >= 500 || (err.status === 409 && err.code === 'idempotency_in_progress')) return true;
  // Signed, then queued past the signature's lifetime by a busy API: refused before any effect, so sent
  // again with a fresh signature (every attempt signs anew).
  return err.status === 401 && (err.details as { reason?: string } | undefined)?.reason === 'expired';
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const calls = new Map<string, number[]>();
  const counts = { created: 0, accepted: 0, ended: 0 };
  let retries = 0;
  let turn = 0;
  let failure: unknown; // the first contract that fails stops the others' retries (the test fails anyway)

  async function call<T>(name: string, op: (baseUrl: string) => Promise<T>): Promise<T> {
    if (failure !== undefined) throw new Error('stopped: another contract failed');
    const started = Date.now();
    const first = turn++;
    for (let attempt = 0; ; attempt++) {
      const baseUrl = options.urls[(first + attempt) % options.urls.length]!;
      try {
        const value = await op(baseUrl);
        const list = calls.get(name) ?? [];
        list.push(Date.now() - started);
        calls.set(name, list);
        return value;
      } catch (err) {
        if (failure !== undefined || !retriable(err) || Date.now() - started > RETRY_FOR_MS) throw err;
        retries += 1;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  const progress = (step: keyof typeof counts) => options.onProgress?.(step, ++counts[step]);

  async function one(i: number): Promise<ContractOutcome> {
    const [clientKey, workerKey] = [randomPrivateKey(), randomPrivateKey()];
    const as = (key: string) => (baseUrl: string) => createAgentClient({ baseUrl, privateKey: key });
    const client = as(clientKey);
    const worker = as(workerKey);
    const operator = (baseUrl: string) => createOperatorClient({ baseUrl, token: options.operatorToken });
    const addresses = { client: client('http://x').address, worker: worker('http://x').address };
    for (const address of Object.values(addresses)) {
      await call('deposit', (u) =>
        operator(u).deposit(
          { address, amount: FUNDS.toString() },
          { idempotencyKey: `load-fund-${address}` },
        ),
      );
    }
    // One body for every attempt: a retry with the same key and other deadlines would be another request.
    const terms = fixedTerms(addresses.worker);
    const created = await call('create', (u) =>
      client(u).createContract(terms, { idempotencyKey: `load-create-${i}` }),
    );
    const id = created.contractId;
    progress('created');
    const outcome = (expected: ContractOutcome['expected'], status: string): ContractOutcome => ({
      contractId: id,
      expected,
      status,
      ...addresses,
    });
    if (i % 3 === 2) {
      const cancelled = await call('cancel', (u) =>
        client(u).cancel(id, { idempotencyKey: `load-cancel-${i}` }),
      );
      progress('ended');
      return outcome('cancelled-by-client', cancelled.status);
    }
    await call('accept', (u) => worker(u).accept(id, { idempotencyKey: `load-accept-${i}` }));
    progress('accepted');
    await call('materials-key', (u) => worker(u).getMaterialsKey(id));
    await call('deliver', (u) => worker(u).deliver(id, DELIVERY, { idempotencyKey: `load-deliver-${i}` }));
    await call('delivery-key', (u) => client(u).getDeliveryKey(id));
    await call('approve', (u) => client(u).approve(id, { idempotencyKey: `load-approve-${i}` }));
    const deadline = Date.now() + SETTLE_WITHIN_MS;
    for (;;) {
      const view = await call('get', (u) => client(u).getContract(id));
      if (view.status === 'settled-fully-met' || Date.now() > deadline) {
        progress('ended');
        return outcome('settled-fully-met', view.status);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const started = Date.now();
  const outcomes = await Promise.all(
    Array.from({ length: options.contracts }, (_, i) =>
      one(i).catch((err: unknown) => {
        failure ??= err;
        throw new Error(`contract #${i}: ${(err as Error).message}`, { cause: err });
      }),
    ),
  );
  return { seconds: (Date.now() - started) / 1000, outcomes, calls, retries };
}

export function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

/** A table of contracts/s and p95 per call, one column per run. */
export function formatFigures(runs: Array<{ label: string; result: LoadResult }>): string {
  const names = [...new Set(runs.flatMap((r) => [...r.result.calls.keys()]))];
  const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(22))).join('');
  return [
    row(['', ...runs.map((r) => r.label)]),
    row(['contracts/s', ...runs.map((r) => (r.result.outcomes.length / r.result.seconds).toFixed(2))]),
    row(['wall time (s)', ...runs.map((r) => r.result.seconds.toFixed(1))]),
    row(['retried calls', ...runs.map((r) => String(r.result.retries))]),
    ...names.map((n) => row([`p95 ${n} (ms)`, ...runs.map((r) => String(p95(r.result.calls.get(n) ?? [])))])),
  ].join('\n');
}

interface LedgerView {
  balances(address: string): Promise<{ USDC: { available: bigint; held: bigint } }>;
  audit(): Promise<{ assets: Record<string, { sum: bigint }>; openHolds: number; transfers: number }>;
}

/** Every contract ended as its script expects, each party holds exactly what it should, the audit holds. */
export async function assertLoadOutcome(result: LoadResult, ledger: LedgerView): Promise<void> {
  for (const o of result.outcomes) {
    assert.equal(o.status, o.expected, o.contractId);
    const paid = o.expected === 'settled-fully-met' ? PRICE : 0n;
    const client = await ledger.balances(o.client);
    const worker = await ledger.balances(o.worker);
    assert.deepEqual(
      [client.USDC.available, client.USDC.held],
      [FUNDS - paid, 0n],
      `client of ${o.contractId}`,
    );
    assert.deepEqual(
      [worker.USDC.available, worker.USDC.held],
      [FUNDS + paid, 0n],
      `worker of ${o.contractId}`,
    );
  }
  const audit = await ledger.audit(); // recomputes every balance from the transfer rows; throws on a mismatch
  for (const [asset, { sum }] of Object.entries(audit.assets)) assert.equal(sum, 0n, `${asset} sums to zero`);
  assert.equal(audit.openHolds, 0, 'no hold left open');
}
