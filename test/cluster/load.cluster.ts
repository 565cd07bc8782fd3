// Load with faults (`npm run test:cluster`): 300 contracts at once through both APIs of the cluster while a
// worker is SIGKILLed and restarted, an API is SIGKILLed and restarted, and the Temporal server process is
// restarted; then the same load on the dev server (one API, one worker), and the figures side by side.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startClusterHarness } from '../support/cluster';
import { startDevServiceHarness } from '../support/service';
import { assertLoadOutcome, formatFigures, runLoad, type LoadResult } from './load';

const CONTRACTS = Number(process.env.CLUSTER_LOAD_CONTRACTS ?? 300);

interface Fault {
  name: string;
  /** The fault fires once this many contracts have been accepted by their Worker. */
  afterAccepted: number;
  inject(): Promise<void>;
}

test(`${CONTRACTS} contracts through two APIs and two workers, with a worker, an API and the Temporal server restarted`, async () => {
  const runs: Array<{ label: string; result: LoadResult }> = [];

  const h = await startClusterHarness();
  try {
    const { cluster } = h;
    const accepted = Math.floor((CONTRACTS * 2) / 3);
    const faults: Fault[] = [
      {
        name: 'worker-1 SIGKILL + restart',
        afterAccepted: Math.floor(accepted * 0.15),
        inject: () => cluster.workers[0]!.restart('SIGKILL'),
      },
      {
        name: 'api-1 SIGKILL + restart',
        afterAccepted: Math.floor(accepted * 0.35),
        inject: () => cluster.apis[0]!.restart('SIGKILL'),
      },
      {
        name: 'Temporal server restart',
        afterAccepted: Math.floor(accepted * 0.55),
        inject: () => cluster.temporal.restart('SIGTERM'),
      },
    ];
    let acceptedSoFar = 0;
    let ended = 0;
    const injected: Array<{ name: string; endedBefore: number; ms: number }> = [];
    let chain = Promise.resolve();
    const fire = (fault: Fault) => {
      chain = chain.then(async () => {
        const endedBefore = ended;
        const started = Date.now();
        await fault.inject();
        injected.push({ name: fault.name, endedBefore, ms: Date.now() - started });
      });
    };
    const result = await runLoad({
      urls: cluster.apiUrls,
      operatorToken: h.settings.operatorToken,
      contracts: CONTRACTS,
      onProgress(step, count) {
        if (step === 'ended') ended = count;
        if (step !== 'accepted') return;
        acceptedSoFar = count;
        for (const f of faults) if (f.afterAccepted === acceptedSoFar) fire(f);
      },
    });
    await chain;
    runs.push({ label: 'cluster + faults', result });
    for (const f of injected) console.log(`fault: ${f.name} after ${f.endedBefore} ended (${f.ms} ms)`);
    assert.deepEqual(
      injected.map((f) => f.name),
      faults.map((f) => f.name),
    );
    // Each fault struck while contracts were still running.
    for (const f of injected) assert.ok(f.endedBefore < CONTRACTS, f.name);
    await assertLoadOutcome(result, {
      balances: (a) => h.balances(a),
      audit: () => h.ledger().audit(),
    });
  } finally {
    await h.close();
  }

  const dev = await startDevServiceHarness();
  try {
    const result = await runLoad({
      urls: [dev.url()],
      operatorToken: dev.settings.operatorToken,
      contracts: CONTRACTS,
    });
    runs.push({ label: 'dev server', result });
    await assertLoadOutcome(result, { balances: (a) => dev.balances(a), audit: () => dev.ledger().audit() });
  } finally {
    await dev.close();
  }
  console.log(`\n${formatFigures(runs)}\n`);
});
