// The worker dies during settlement, after the ledger committed and before Temporal
// heard back. A worker in a child process (crashing-worker.ts) runs the real settle and SIGKILLs
// itself; Temporal retries the activity on a fresh worker once its start-to-close timeout passes.
// The retry posts nothing (same operation ids), the contract settles once, the balances are exact.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { agentOwner, openLedger, type Ledger } from '../../activities/ledger';
import { openRecords } from '../../activities/records';
import { createAgentClient, createOperatorClient, randomPrivateKey } from '../../api/sdk';
import { startApiServer, type ApiServer } from '../../service/api-server';
import { loadSettings } from '../../service/settings';
import { DELIVERY, fixedTerms } from '../e2e/support';
import { runContractWorker, TASK_QUEUE, testSettingsEnv } from '../support/service';
import { createDevServerEnv } from '../support/temporal';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { FUNDS, PRICE } from '../support/fixtures';
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
function startCrashingWorker(settingsEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'crashing-worker.ts')], {
    env: { ...process.env, ...settingsEnv, CRASH_TASK_QUEUE: TASK_QUEUE, LOG_LEVEL: 'WARN' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
}

test('a worker killed after the settle commit: the retry posts nothing twice, the contract ends once', async () => {
  const settingsEnv = testSettingsEnv(env, dir);
  const settings = loadSettings(settingsEnv);
  ledger = await openLedger(settings.ledger);
  api = await startApiServer(settings, { env: settingsEnv, taskQueue: TASK_QUEUE });
  const crashed = startCrashingWorker(settingsEnv);

  const operator = createOperatorClient({ baseUrl: api.url, token: settings.operatorToken });
  const client = createAgentClient({ baseUrl: api.url, privateKey: randomPrivateKey() });
  const worker = createAgentClient({ baseUrl: api.url, privateKey: randomPrivateKey() });
  await operator.deposit({ address: client.address, amount: FUNDS.toString() });
  await operator.deposit({ address: worker.address, amount: FUNDS.toString() });
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(id);
  await worker.deliver(id, DELIVERY);
  const approving = client.approve(id).catch((err: unknown) => err);

  // The worker dies by its own SIGKILL after the batch committed: the money has moved already.
  const [, signal] = await Promise.race([
    crashed,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => void approving.then((r) => reject(new Error(`no crash; approve: ${String(r)}`))),
        60_000,
      ),
    ),
  ]);
  assert.equal(signal, 'SIGKILL');
  const settledBalances = {
    client: { available: FUNDS - PRICE, held: 0n },
    worker: { available: FUNDS + PRICE, held: 0n },
  };
  const usdc = async (address: string) => (await ledger.balances(agentOwner(address))).USDC;
  assert.deepEqual(await usdc(client.address), settledBalances.client);
  assert.deepEqual(await usdc(worker.address), settledBalances.worker);
  const afterCrash = await ledger.audit();
  assert.equal(afterCrash.openHolds, 0);

  // A fresh worker picks up the retried settle once the dead attempt's start-to-close timeout passes.
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
  assert.equal(afterRetry.transfers, afterCrash.transfers, 'the retried settle posted no transfer');
  assert.deepEqual(await usdc(client.address), settledBalances.client);
  assert.deepEqual(await usdc(worker.address), settledBalances.worker);
  const records = await openRecords(settings.ledger);
  try {
    assert.equal((await records.get(id))?.view.status, 'settled-fully-met');
  } finally {
    await records.close();
  }
});
