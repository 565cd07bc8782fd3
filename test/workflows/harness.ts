// Runs contract workflows on the time-skipping test server with the real ledger activities on a
// temporary SQLite file and the encrypting payload codec, and starts contracts the way the API does
// (api/contracts/gateway.ts's startContract; messages as Updates carrying `caller`). The values it uses
// are test/support/fixtures.ts's.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, type DataConverter } from '@temporalio/common';
import { TimeSkippingWorkflowClient, type TestWorkflowEnvironment } from '@temporalio/testing';
import type { WorkerOptions } from '@temporalio/worker';
import type { Activities } from '../../activities';
import { agentOwner, openLedger, type Ledger } from '../../store/ledger';
import { openRecords } from '../../store/records';
import { openOutcomeLog, type OutcomeLog } from '../../store/outcomes';
import { createPayloadCodec } from '../../service/codec';
import { createContractWorker } from '../../service/worker';
import { prebuiltWorkflowBundle } from '../../service/workflow-bundle';
import { createTimeSkippingEnv } from '../support/temporal';
import type { contractWorkflow } from '../../workflows/contract';
import { startContract } from '../../api/contracts/gateway';
import { contractInput } from '../../api/contracts/input';
import {
  contractQuery,
  contractWorkflowId,
  type ContractInput,
  type ContractView,
} from '../../workflows/definitions';
import {
  BA_FUNDS,
  BAS,
  CLIENT,
  contractBody,
  ELIGIBILITY_STAKE,
  FUNDS,
  OTHER,
  POOR,
  SHA_A,
  SHA_B,
  WORKER,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import { validateContractTerms } from '../../workflows/rules/contract-terms';
import type { CreateContractBody } from '../../workflows/rules/contract-body';
import { DEFAULT_PARAMS, type ProtocolParams } from '../../workflows/rules/params';
import { type Balance } from '../support/balances';

export type Party = string | 'treasury';

/** One file's Temporal environment and workflow bundle, built once. */
export interface Suite {
  env: TestWorkflowEnvironment;
  bundle: WorkerOptions['workflowBundle'];
  dataConverter: DataConverter;
  dir: string;
  teardown(): Promise<void>;
}

/** A fixed key for the saved histories (test-only: it protects nothing real). */
export const HISTORY_CODEC_KEY = new Uint8Array(32).fill(0x42);

export async function createSuite(codecKey: Uint8Array = randomBytes(32)): Promise<Suite> {
  const env = await createTimeSkippingEnv();
  const bundle = await prebuiltWorkflowBundle();
  const dir = mkdtempSync(join(tmpdir(), 'oc-workflows-'));
  return {
    env,
    bundle,
    dataConverter: { payloadCodecs: [createPayloadCodec(codecKey)] },
    dir,
    async teardown() {
      await env.teardown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers this test file's suite (started before its tests, torn down after them) and returns how a
 * test runs on it: `const withHarness = useWorkflowSuite(); test('…', () => withHarness(async (h) => …))`.
 */
export function useWorkflowSuite(): <T>(
  test: (h: Harness) => Promise<T>,
  wrapActivities?: (activities: Activities) => Activities,
) => Promise<T> {
  let suite: Suite | undefined;
  before(async () => {
    suite = await createSuite();
  });
  after(async () => {
    await suite?.teardown();
  });
  return (test, wrapActivities) => {
    if (!suite)
      throw new Error('the workflow suite has not started: call useWorkflowSuite() at the top level');
    return Harness.run(suite, test, wrapActivities);
  };
}

let contractCount = 0;
let ledgerCount = 0;

/** One test: a fresh ledger file with funded parties, a worker on its own task queue, a codec client. */
export class Harness {
  readonly client: TimeSkippingWorkflowClient;
  readonly taskQueue = `contracts-${randomBytes(6).toString('hex')}`;

  private constructor(
    readonly suite: Suite,
    readonly ledger: Ledger,
    /** The outcome log the worker appends to (docs/reputation.md). */
    readonly outcomes: OutcomeLog,
  ) {
    this.client = new TimeSkippingWorkflowClient({
      connection: suite.env.connection,
      namespace: suite.env.namespace ?? 'default',
      dataConverter: suite.dataConverter,
    });
  }

  static async run<T>(
    suite: Suite,
    test: (h: Harness) => Promise<T>,
    wrapActivities?: (activities: Activities) => Activities,
  ): Promise<T> {
    const config = { kind: 'sqlite', path: join(suite.dir, `ledger-${++ledgerCount}.db`) } as const;
    const ledger = await openLedger(config);
    const records = await openRecords(config);
    const outcomes = await openOutcomeLog(config);
    const h = new Harness(suite, ledger, outcomes);
    await h.fund(CLIENT, FUNDS);
    await h.fund(WORKER, WORKER_FUNDS);
    await h.fund(OTHER, WORKER_FUNDS);
    await h.fund(POOR, WORKER_STAKE - 1n);
    const worker = await createContractWorker({
      connection: suite.env.nativeConnection,
      namespace: suite.env.namespace ?? 'default',
      taskQueue: h.taskQueue,
      ledger,
      records,
      outcomes,
      dataConverter: suite.dataConverter,
      workflowBundle: suite.bundle,
      ...(wrapActivities === undefined ? {} : { wrapActivities }),
    });
    try {
      return await worker.runUntil(test(h));
    } finally {
      await ledger.close();
      await records.close();
      await outcomes.close();
    }
  }

  async fund(address: string, amount: bigint): Promise<void> {
    await this.ledger.deposit({ id: `fund:${address}`, asset: 'USDC', to: agentOwner(address), amount });
  }

  /**
   * Funds each agent (BA_FUNDS, or more for a larger stake) and locks `stake` as its BA Eligibility
   * Stake, so the draw can seat it.
   */
  async makeEligible(agents: readonly string[] = BAS, stake = ELIGIBILITY_STAKE): Promise<void> {
    for (const agent of agents) {
      await this.fund(agent, BA_FUNDS - ELIGIBILITY_STAKE + stake);
      await this.ledger.hold({
        id: `eligibility:${agent}:lock:test`,
        owner: agentOwner(agent),
        asset: 'USDC',
        amount: stake,
        holdKind: 'eligibility',
      });
    }
  }

  /** OCT (reward tokens) of a party. */
  async tokens(party: Party): Promise<bigint> {
    const b = await this.ledger.balances(party === 'treasury' ? 'treasury' : agentOwner(party));
    return b.OCT.available;
  }

  async balance(party: Party): Promise<Balance> {
    const b = await this.ledger.balances(party === 'treasury' ? 'treasury' : agentOwner(party));
    return { available: b.USDC.available, held: b.USDC.held };
  }

  /** Asserts the exact USDC balance of every party. */
  async assertBalances(expected: Record<string, Balance>): Promise<void> {
    for (const [party, want] of Object.entries(expected)) {
      assert.deepEqual(await this.balance(party), want, `balance of ${party}`);
    }
  }

  /** A terminal contract holds nothing: every hold it opened is resolved. */
  async assertNothingPending(contractId: string): Promise<void> {
    const open = (await this.ledger.holdsByContract(contractId)).filter((h) => h.status === 'open');
    assert.deepEqual(open, [], 'open holds of the contract');
  }

  now(): Promise<number> {
    return this.suite.env.currentTimeMs();
  }

  /** Moves the test server's clock (timers due meanwhile fire). */
  sleep(ms: number): Promise<void> {
    return this.suite.env.sleep(ms);
  }

  async input(
    body: Partial<CreateContractBody> = {},
    params: ProtocolParams = DEFAULT_PARAMS,
    client: string = CLIENT,
  ): Promise<ContractInput> {
    const t0 = await this.now();
    const full = contractBody(WORKER, body, t0);
    const result = validateContractTerms(full, t0, client);
    if (!result.ok) throw new Error(`bad test terms: ${JSON.stringify(result.errors)}`);
    const contractId = `c-${(++contractCount).toString().padStart(4, '0')}${randomBytes(11).toString('hex')}`;
    return contractInput(contractId, result.terms, params);
  }

  /** Starts a contract through the API's own start (update-with-start of `created`, answered once the escrow is held). */
  async create(
    input: ContractInput,
  ): Promise<{ handle: WorkflowHandle<typeof contractWorkflow>; view: ContractView }> {
    const view = await startContract(this.client, this.taskQueue, input, `contract ${input.contractId}`);
    return { handle: this.client.getHandle(contractWorkflowId(input.contractId)), view };
  }

  view(handle: WorkflowHandle): Promise<ContractView> {
    return handle.query(contractQuery);
  }
}

/** Asserts an Update was refused with the given failure type and machine code. */
export async function assertRefused(promise: Promise<unknown>, type: string, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WorkflowUpdateFailedError, `not an update failure: ${String(error)}`);
    const cause = error.cause;
    assert.ok(cause instanceof ApplicationFailure, `cause is not an ApplicationFailure: ${String(cause)}`);
    assert.equal(cause.type, type, cause.message);
    assert.equal((cause.details?.[0] as { code?: string } | undefined)?.code, code, cause.message);
    return true;
  });
}

export const delivery = (caller: string) => ({
  caller,
  uri: 'https://store.example/d/1',
  sha256: SHA_A,
  contentHash: SHA_B,
});
