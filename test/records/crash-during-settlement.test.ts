// The worker dies during settlement, after the ledger committed and before Temporal
// heard back. A worker in a child process (crashing-worker.ts) runs the real settle and SIGKILLs
// itself; Temporal retries the activity on a fresh worker once its start-to-close timeout passes.
// The retry posts nothing (same operation ids), the contract settles once, the balances are exact.
// The same with the worker killed after writing the durable record: the retried task writes it again
// (a higher version: the store takes the rewrite) and the workflow completes. The worker killed before
// a transition's read-model write: reads show the contract as it was until a fresh worker retries the
// task, which writes it. And the
// worker killed right after a direct award's stake lock, a local activity inside the accept's task:
// the retried task locks it again under the same id, so one stake is held and the accept answers;
// the same for the Client's Dispute Bond. And the worker killed right after appending the outcome
// records: the retried task appends nothing, one record per party stays.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { agentOwner, openLedger, type Ledger } from '../../store/ledger';
import { openRecords } from '../../store/records';
import { openOutcomeLog } from '../../store/outcomes';
import { verifyChain } from '../../workflows/rules/outcomes';
import {
  AgentApiError,
  createAgentClient,
  createOperatorClient,
  randomPrivateKey,
} from '../../sdk/typescript';
import { startApiServer, type ApiServer } from '../../service/api-server';
import { loadSettings } from '../../service/settings';
import { DELIVERY, fixedTerms } from '../e2e/support';
import { runContractWorker, TASK_QUEUE, testSettingsEnv } from '../support/service';
import { createDevServerEnv } from '../support/temporal';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DISPUTE_BOND, FUNDS, PANEL_FEE, PRICE, WORKER_STAKE } from '../support/fixtures';
import { panelFeeHoldId } from '../../workflows/rules/panel-fee';
import { eventually, waitClosed } from '../support/eventually';

let env: TestWorkflowEnvironment;
let dir: string;
let api: ApiServer;
let ledger: Ledger;

before(async () => {
  env = await createDevServerEnv();
  dir = mkdtempSync(join(tmpdir(), 'oc-crash-'));
});
after(async () => {
  await api?.close();
  await ledger?.close();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the crashing worker (it bundles, then polls); the returned promise settles when it dies. */
type CrashActivity = 'settle' | 'writeContract' | 'appendOutcomes' | 'lockStake' | 'lockBond';

/** When a `writeContract` crash strikes: at the write of this status, after (default) or before it commits. */
interface CrashPoint {
  whenStatus?: string;
  before?: boolean;
}

function startCrashingWorker(
  settingsEnv: NodeJS.ProcessEnv,
  activity: CrashActivity,
  point: CrashPoint = {},
) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'crashing-worker.ts')], {
    env: {
      ...process.env,
      ...settingsEnv,
      CRASH_TASK_QUEUE: TASK_QUEUE,
      CRASH_ACTIVITY: activity,
      ...(point.whenStatus === undefined ? {} : { CRASH_WHEN_STATUS: point.whenStatus }),
      ...(point.before ? { CRASH_BEFORE: '1' } : {}),
      LOG_LEVEL: 'WARN',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
}

const settledBalances = {
  client: { available: FUNDS - PRICE, held: 0n },
  worker: { available: FUNDS + PRICE, held: 0n },
};
const usdc = async (address: string) => (await ledger.balances(agentOwner(address))).USDC;

/**
 * A contract approved while the crashing worker runs, after that worker died by its own SIGKILL once
 * `activity` committed: the money has moved already. `approving` settles once a fresh worker finishes.
 */
/** The API (no worker of its own), the ledger, a crashing worker, and a funded Client and Worker. */
async function partiesWithCrashingWorker(activity: CrashActivity, point: CrashPoint = {}) {
  // A short recruitment window: a dispute that finds no panel goes to the operator within seconds.
  const settingsEnv = testSettingsEnv(env, dir, { baRecruitmentWindow: 3_000 });
  const settings = loadSettings(settingsEnv);
  ledger ??= await openLedger(settings.ledger);
  api ??= await startApiServer(settings, { env: settingsEnv, taskQueue: TASK_QUEUE });
  const crashed = startCrashingWorker(settingsEnv, activity, point);

  const operator = createOperatorClient({ baseUrl: api.url, token: settings.operatorToken });
  const client = createAgentClient({ baseUrl: api.url, privateKey: randomPrivateKey() });
  const worker = createAgentClient({ baseUrl: api.url, privateKey: randomPrivateKey() });
  await operator.deposit({ address: client.address, amount: FUNDS.toString() });
  await operator.deposit({ address: worker.address, amount: FUNDS.toString() });
  return { settings, crashed, client, worker };
}

/** Waits for the crashing worker's SIGKILL, failing after a minute with what `pending` answered. */
async function crashOf(crashed: Promise<[number | null, NodeJS.Signals | null]>, pending: Promise<unknown>) {
  const [, signal] = await Promise.race([
    crashed,
    new Promise<never>((_, reject) =>
      setTimeout(() => void pending.then((r) => reject(new Error(`no crash; call: ${String(r)}`))), 60_000),
    ),
  ]);
  assert.equal(signal, 'SIGKILL');
}

async function approvedIntoCrash(activity: 'settle' | 'writeContract' | 'appendOutcomes') {
  const point = activity === 'writeContract' ? { whenStatus: 'settled-fully-met' } : {};
  const { settings, crashed, client, worker } = await partiesWithCrashingWorker(activity, point);
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(id);
  await worker.deliver(id, DELIVERY);
  const approving = client.approve(id).catch((err: unknown) => err);
  await crashOf(crashed, approving);
  assert.deepEqual(await usdc(client.address), settledBalances.client);
  assert.deepEqual(await usdc(worker.address), settledBalances.worker);
  const afterCrash = await ledger.audit();
  assert.equal(afterCrash.openHolds, 0);
  return { settings, client, worker, id, approving, afterCrash };
}

/** Runs a fresh worker until the contract settled once and its workflow completed. */
async function settlesOnceOnFreshWorker(run: Awaited<ReturnType<typeof approvedIntoCrash>>) {
  const { settings, client, id, approving } = run;
  const fresh = await runContractWorker(env, ledger, settings);
  try {
    await approving;
    const view = await eventually(
      () => client.getContract(id),
      (v) => v.status === 'settled-fully-met',
      90_000,
    );
    assert.equal(view.status, 'settled-fully-met');
    await waitClosed(env.client, id);
    const { events } = await client.getEvents(id);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    assert.equal(count('contract.resolved'), 1);
    assert.equal(count('contract.settled'), 1);
  } finally {
    await fresh.stop();
  }
  const afterRetry = await ledger.audit();
  assert.equal(afterRetry.transfers, run.afterCrash.transfers, 'the retried settle posted no transfer');
  assert.deepEqual(await usdc(run.client.address), settledBalances.client);
  assert.deepEqual(await usdc(run.worker.address), settledBalances.worker);
}

async function recordOf(settings: ReturnType<typeof loadSettings>, id: string) {
  const records = await openRecords(settings.ledger);
  try {
    return await records.get(id);
  } finally {
    await records.close();
  }
}

test('a worker killed after the settle commit: the retry posts nothing twice, the contract ends once', async () => {
  // A fresh worker picks up the retried settle once the dead attempt's task timeout passes.
  const run = await approvedIntoCrash('settle');
  await settlesOnceOnFreshWorker(run);
  assert.equal((await recordOf(run.settings, run.id))?.view.status, 'settled-fully-met');
});

test('a worker killed after writing the durable record (a local activity): the retried task rewrites it, money moves once', async () => {
  const run = await approvedIntoCrash('writeContract');
  const first = await recordOf(run.settings, run.id);
  assert.equal(first?.view.status, 'settled-fully-met');
  await settlesOnceOnFreshWorker(run);
  const last = await recordOf(run.settings, run.id);
  assert.equal(last?.view.status, 'settled-fully-met');
  assert.ok(last.version > first.version, 'the retried task, later by the workflow clock, wrote it again');
  const settled = last.events.filter((e) => e.type === 'contract.settled');
  assert.equal(settled.length, 1, "the log is one task's, never a mix");
});

test('a worker killed between a transition and its read-model write: the view catches up on a fresh worker', async () => {
  const { settings, crashed, client, worker } = await partiesWithCrashingWorker('writeContract', {
    whenStatus: 'under-review',
    before: true,
  });
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(id);
  const delivering = worker.deliver(id, DELIVERY).catch((err: unknown) => err);
  await crashOf(crashed, delivering);
  // The delivery took effect in the dead worker's task, which never completed: the read model still
  // shows the contract as it was, and so does every read.
  assert.equal((await recordOf(settings, id))?.view.status, 'matched');
  assert.equal((await client.getContract(id)).status, 'matched');

  const fresh = await runContractWorker(env, ledger, settings);
  try {
    const answered = await delivering;
    if (answered instanceof Error) {
      // The answer was lost with the worker: the retried task took the delivery, a second one is refused.
      await worker
        .deliver(id, DELIVERY)
        .catch((err: unknown) => assert.ok(err instanceof AgentApiError && err.status === 409, String(err)));
    }
    const view = await eventually(
      () => client.getContract(id),
      (v) => v.status === 'under-review',
      90_000,
    );
    assert.equal(view.status, 'under-review');
    const { events } = await client.getEvents(id);
    assert.equal(events.filter((e) => e.type === 'contract.delivered').length, 1);
    await client.approve(id);
    assert.equal((await client.getContract(id)).status, 'settled-fully-met');
  } finally {
    await fresh.stop();
  }
  assert.deepEqual(await usdc(client.address), settledBalances.client);
  assert.deepEqual(await usdc(worker.address), settledBalances.worker);
});

test('a worker killed after appending the outcome records: one record per party, the chain intact', async () => {
  const run = await approvedIntoCrash('appendOutcomes');
  const log = await openOutcomeLog(run.settings.ledger);
  try {
    const before = (await log.list(0, 10_000)).filter((r) => r.contractId === run.id);
    assert.deepEqual(
      before.map((r) => [r.role, r.party]),
      [
        ['client', run.client.address],
        ['worker', run.worker.address],
      ],
    );
    await settlesOnceOnFreshWorker(run);
    const all = await log.list(0, 10_000);
    assert.deepEqual(
      all.filter((r) => r.contractId === run.id),
      before,
      'the retried task appended nothing',
    );
    assert.deepEqual(verifyChain(all), []);
  } finally {
    await log.close();
  }
});

test("a worker killed after a direct award's stake lock (a local activity): one stake held, the accept answers", async () => {
  // Created before the crash: the crashing worker runs the creation's task too (its escrow lock).
  const { settings, crashed, client, worker } = await partiesWithCrashingWorker('lockStake');
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  const accepting = worker.accept(id).catch((err: unknown) => err);
  await crashOf(crashed, accepting);
  // The stake is locked, but its accept is in no history yet: the task that locked it never completed.
  const held = { available: FUNDS - WORKER_STAKE, held: WORKER_STAKE };
  assert.deepEqual(await usdc(worker.address), held);

  const fresh = await runContractWorker(env, ledger, settings);
  try {
    // The Update comes back with the retried task; a caller whose answer was lost sends it again.
    const answered = await accepting;
    if (answered instanceof Error) {
      // Already matched by the Update the retried task took: a 409 tells the caller so.
      await worker
        .accept(id)
        .catch((err: unknown) => assert.ok(err instanceof AgentApiError && err.status === 409, String(err)));
    }
    const view = await eventually(
      () => client.getContract(id),
      (v) => v.status === 'matched',
      90_000,
    );
    assert.equal(view.view === 'party' && view.worker, worker.address);
    const stakes = (await ledger.holdsByContract(id)).filter((x) => x.kind === 'stake');
    assert.deepEqual(
      stakes.map((x) => x.status),
      ['open'],
      'the retried lock replayed the same hold',
    );
    assert.deepEqual(await usdc(worker.address), held);
    await worker.deliver(id, DELIVERY);
    await client.approve(id);
    await waitClosed(env.client, id);
  } finally {
    await fresh.stop();
  }
  assert.deepEqual(await usdc(client.address), settledBalances.client);
  assert.deepEqual(await usdc(worker.address), settledBalances.worker);
  assert.equal((await ledger.audit()).openHolds, 0);
});

test("a worker killed after the Dispute Bond's lock (a local activity): one bond held, the dispute decides once", async () => {
  const { settings, crashed, client, worker } = await partiesWithCrashingWorker('lockBond');
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(id);
  await worker.deliver(id, DELIVERY);
  const disputing = client.dispute(id).catch((err: unknown) => err);
  await crashOf(crashed, disputing);
  // The Dispute Bond and the panel fee it brings, held in one batch.
  assert.deepEqual(await usdc(client.address), {
    available: FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE,
    held: PRICE + DISPUTE_BOND + PANEL_FEE,
  });

  const fresh = await runContractWorker(env, ledger, settings);
  try {
    if ((await disputing) instanceof Error) {
      await client
        .dispute(id)
        .catch((err: unknown) => assert.ok(err instanceof AgentApiError && err.status === 409, String(err)));
    }
    // Nobody holds the eligibility stake here: no panel can be seated, so the dispute waits (its bond
    // held once), then goes to the operator as trusted arbiter, who finds every criterion met: the
    // delivery is paid in full and the unfounded bond goes to the treasury.
    const waiting = await eventually(
      () => client.getContract(id),
      (v) => v.view === 'party' && v.awaitingArbiter,
      90_000,
    );
    const operator = createOperatorClient({ baseUrl: api!.url, token: settings.operatorToken });
    await operator.arbitrate(
      id,
      waiting.acceptanceCriteria.map(() => 'met' as const),
    );
    const view = await eventually(
      () => client.getContract(id),
      (v) => v.status.startsWith('settled-'),
      90_000,
    );
    assert.equal(view.status, 'settled-fully-met');
    await waitClosed(env.client, id);
  } finally {
    await fresh.stop();
  }
  // The panel fee's hold is of the same kind; the trusted arbiter returned it.
  const bonds = (await ledger.holdsByContract(id)).filter(
    (x) => x.kind === 'dispute-bond' && x.id !== panelFeeHoldId(id, 'panel'),
  );
  assert.deepEqual(
    bonds.map((x) => x.status),
    ['resolved'],
    'the retried lock replayed the same bond',
  );
  assert.deepEqual(await usdc(client.address), { available: FUNDS - PRICE - DISPUTE_BOND, held: 0n });
  assert.deepEqual(await usdc(worker.address), settledBalances.worker);
  assert.equal((await ledger.audit()).openHolds, 0);
});
