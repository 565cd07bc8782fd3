// The load scenario of `npm run test:cluster`: N contracts through every API URL given, each agent pair on its
// own contract, at most `callers` of them running at once (a new pair starts as one ends). Two scripts: FDP
// from creation to settled-fully-met (2 in 3), and FDP cancelled by the Client before the Worker accepts
// (1 in 3). Calls that meet a dead API or a restarting Temporal server (no answer, 5xx, a key another API
// still holds, a signature that expired in a queue) are retried on the next API with the same
// Idempotency-Key, as an SDK user would.
import assert from 'node:assert/strict';
import {
  AgentApiError,
  createAgentClient,
  createOperatorClient,
  randomPrivateKey,
} from '../../sdk/typescript';
import { DELIVERY, fixedTerms, FUNDS, PRICE } from '../e2e/support';

// Generous: hundreds of contracts at once on 2 shared cores through a Temporal restart may leave one call
// unanswered for minutes. The test asserts how long calls took; this only bounds a stall so it fails instead
// of hanging.
const RETRY_FOR_MS = 600_000;
const SETTLE_WITHIN_MS = 900_000;

export interface LoadOptions {
  urls: string[];
  operatorToken: string;
  contracts: number;
  /** How many contracts run at once: a new one starts as one ends (default: all at once). */
  callers?: number;
  /** Called after each contract's step, with how many contracts have passed it. */
  onProgress?: (step: 'created' | 'accepted' | 'ended', count: number) => void;
  /** Contract `i` starts when this resolves (default: all at once). */
  startWhen?: (i: number) => Promise<void>;
}

/** An attempt that failed: on which API, when it was sent and when it failed. */
export interface FailedAttempt {
  url: string;
  sent: number;
  at: number;
  /** What the attempt met: `<status> <code>`, or the error's message when no answer came. */
  error: string;
}

/** One call as its caller saw it: when it began and succeeded, and each failed attempt. */
export interface CallRecord {
  name: string;
  started: number;
  ended: number;
  failures: FailedAttempt[];
  /** The API that answered. */
  url: string;
  /** The contract the call was about (its creation and every call after it). */
  contractId?: string;
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
  records: CallRecord[];
}

/**
 * No answer (the API died), a 5xx (Temporal restarting, an API stopping), or 409 `idempotency_in_progress`:
 * another API holds this Idempotency-Key (the one the attempt before was sent to, still running it, or one
 * just killed whose death the store has not seen yet: store/lease.ts), so the same key is tried again until
 * the holder answers or another API takes it over.
 */
function retriable(err: unknown): boolean {
  if (!(err instanceof AgentApiError)) return true;
  if (err.status >= 500 || (err.status === 409 && err.code === 'idempotency_in_progress')) return true;
  // Signed, then queued past the signature's lifetime by a busy API: refused before any effect, so sent
  // again with a fresh signature (every attempt signs anew).
  return err.status === 401 && (err.details as { reason?: string } | undefined)?.reason === 'expired';
}

function describe(err: unknown): string {
  return err instanceof AgentApiError ? `${err.status} ${err.code}` : String((err as Error).message);
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const calls = new Map<string, number[]>();
  const records: CallRecord[] = [];
  const counts = { created: 0, accepted: 0, ended: 0 };
  let retries = 0;
  let turn = 0;
  let failure: unknown; // the first contract that fails stops the others' retries (the test fails anyway)

  /** `contract`: the contract the call is about, or how to read it from the answer (a creation). */
  async function call<T>(
    name: string,
    op: (baseUrl: string) => Promise<T>,
    contract?: string | ((value: T) => string),
  ): Promise<T> {
    if (failure !== undefined) throw new Error('stopped: another contract failed');
    const started = Date.now();
    const failures: FailedAttempt[] = [];
    const first = turn++;
    for (let attempt = 0; ; attempt++) {
      const baseUrl = options.urls[(first + attempt) % options.urls.length]!;
      const sent = Date.now();
      try {
        const value = await op(baseUrl);
        const ended = Date.now();
        const list = calls.get(name) ?? [];
        list.push(ended - started);
        calls.set(name, list);
        const contractId = typeof contract === 'function' ? contract(value) : contract;
        records.push({ name, started, ended, failures, url: baseUrl, ...(contractId ? { contractId } : {}) });
        return value;
      } catch (err) {
        if (failure !== undefined || !retriable(err) || Date.now() - started > RETRY_FOR_MS) throw err;
        failures.push({ url: baseUrl, sent, at: Date.now(), error: describe(err) });
        retries += 1;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  const progress = (step: keyof typeof counts) => options.onProgress?.(step, ++counts[step]);

  async function one(i: number): Promise<ContractOutcome> {
    await options.startWhen?.(i);
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
    const created = await call(
      'create',
      (u) => client(u).createContract(terms, { idempotencyKey: `load-create-${i}` }),
      (answer) => answer.contractId,
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
      const cancelled = await call(
        'cancel',
        (u) => client(u).cancel(id, { idempotencyKey: `load-cancel-${i}` }),
        id,
      );
      progress('ended');
      return outcome('cancelled-by-client', cancelled.status);
    }
    await call('accept', (u) => worker(u).accept(id, { idempotencyKey: `load-accept-${i}` }), id);
    progress('accepted');
    await call('materials-key', (u) => worker(u).getMaterialsKey(id), id);
    await call(
      'deliver',
      (u) => worker(u).deliver(id, DELIVERY, { idempotencyKey: `load-deliver-${i}` }),
      id,
    );
    await call('delivery-key', (u) => client(u).getDeliveryKey(id), id);
    await call('approve', (u) => client(u).approve(id, { idempotencyKey: `load-approve-${i}` }), id);
    const deadline = Date.now() + SETTLE_WITHIN_MS;
    for (;;) {
      const view = await call('get', (u) => client(u).getContract(id), id);
      if (view.status === 'settled-fully-met' || Date.now() > deadline) {
        progress('ended');
        return outcome('settled-fully-met', view.status);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }

  const started = Date.now();
  const outcomes: ContractOutcome[] = [];
  let next = 0;
  const caller = async () => {
    for (let i = next++; i < options.contracts; i = next++) {
      outcomes[i] = await one(i).catch((err: unknown) => {
        failure ??= err;
        throw new Error(`contract #${i}: ${(err as Error).message}`, { cause: err });
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.callers ?? Infinity, options.contracts) }, caller));
  return { seconds: (Date.now() - started) / 1000, outcomes, calls, retries, records };
}

export interface Recovery {
  /** Calls in flight at the fault that then failed at least once (their callers saw it). */
  met: number;
  /** From the fault to the first and to the last success of those calls (ms); 0 when none met it. */
  firstMs: number;
  lastMs: number;
  /** The slowest call in flight at the fault, from the fault to its success (ms), whether it failed or waited. */
  slowestMs: number;
}

/**
 * What the callers of the calls in flight at `at` saw of a fault struck then: those that failed after it and
 * before the next fault (`until`), or with `url`, the API that died, those whose attempt on it was in flight
 * at `at` and failed.
 */
export function recoveryFrom(result: LoadResult, at: number, url?: string, until = Infinity): Recovery {
  const inFlight = result.records.filter((r) => r.started <= at && r.ended > at);
  const struck = (f: FailedAttempt) =>
    url === undefined ? f.at >= at && f.at < until : f.url === url && f.sent <= at && f.at >= at;
  const met = inFlight.filter((r) => r.failures.some(struck)).map((r) => r.ended - at);
  return {
    met: met.length,
    firstMs: met.length === 0 ? 0 : Math.min(...met),
    lastMs: met.length === 0 ? 0 : Math.max(...met),
    slowestMs: Math.max(0, ...inFlight.map((r) => r.ended - at)),
  };
}

export function formatRecovery(r: Recovery): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `${r.met} calls in flight met it, fault → their success: first ${s(r.firstMs)}, last ${s(r.lastMs)}; slowest call in flight ${s(r.slowestMs)}`;
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
    row(['p95 every call (ms)', ...runs.map((r) => String(p95([...r.result.calls.values()].flat())))]),
    ...names.map((n) => row([`p95 ${n} (ms)`, ...runs.map((r) => String(p95(r.result.calls.get(n) ?? [])))])),
  ].join('\n');
}

interface LedgerView {
  balances(address: string): Promise<{ USDC: { available: bigint; held: bigint } }>;
  holds(contractId: string): Promise<Array<{ kind: string }>>;
  audit(): Promise<{ assets: Record<string, { sum: bigint }>; openHolds: number; transfers: number }>;
}

/**
 * Every contract ended as its script expects, no keyed call ran twice (one contract per keyed create, one
 * escrow per contract, one stake per accepted contract), each party holds exactly what it should, and the
 * audit holds.
 */
export async function assertLoadOutcome(result: LoadResult, ledger: LedgerView): Promise<void> {
  assert.equal(new Set(result.outcomes.map((o) => o.contractId)).size, result.outcomes.length);
  for (const o of result.outcomes) {
    assert.equal(o.status, o.expected, o.contractId);
    const kinds = (await ledger.holds(o.contractId)).map((h) => h.kind);
    const count = (kind: string) => kinds.filter((k) => k === kind).length;
    assert.deepEqual(
      { escrow: count('escrow'), stake: count('stake') },
      { escrow: 1, stake: o.expected === 'settled-fully-met' ? 1 : 0 },
      `holds of ${o.contractId}`,
    );
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
