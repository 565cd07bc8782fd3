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
    const reached = { created: 0, accepted: 0, ended: 0 };
    const injected: Array<{ name: string; endedBefore: number; endedAfter: number; ms: number }> = [];
    const failed: string[] = [];
    // One fault at a time; a failed one is recorded, never left as a rejection to race the cluster's stop.
    let chain = Promise.resolve();
    const fire = (fault: Fault) => {
      chain = chain.then(async () => {
        const endedBefore = reached.ended;
        const started = Date.now();
        try {
          console.log(`fault: ${fault.name} (${endedBefore} of ${CONTRACTS} ended)`);
          await fault.inject();
          injected.push({
            name: fault.name,
            endedBefore,
            endedAfter: reached.ended,
            ms: Date.now() - started,
          });
        } catch (err) {
          failed.push(`${fault.name}: ${(err as Error).message}`);
        }
      });
    };
    let result: LoadResult;
    try {
      result = await runLoad({
        urls: cluster.apiUrls,
        operatorToken: h.settings.operatorToken,
        contracts: CONTRACTS,
        onProgress(step, count) {
          reached[step] = count;
          if (step !== 'accepted') return;
          for (const f of faults) if (f.afterAccepted === count) fire(f);
        },
      });
    } catch (error) {
      // Where the load stood and what each process said last: the evidence a stall leaves.
      console.error(
        `load failed with ${JSON.stringify(reached)} of ${CONTRACTS}, faults ${JSON.stringify(injected)}`,
      );
      for (const p of [cluster.temporal, ...cluster.workers, ...cluster.apis]) {
        console.error(`--- ${p.name}, running: ${p.running}, last output:\n${p.log().slice(-4000)}`);
      }
      throw error;
    } finally {
      // A process being restarted comes up before anything stops the cluster (else its SIGTERM lands
      // on the half-started process and hides the load's own error).
      await chain;
    }
    assert.deepEqual(failed, [], 'every fault was injected and its process came back');
    runs.push({ label: 'cluster + faults', result });
    console.log(`\n${formatFigures(runs)}\n`);
    for (const f of injected) {
      console.log(`fault: ${f.name}: ${f.endedBefore}…${f.endedAfter} of ${CONTRACTS} ended (${f.ms} ms)`);
    }
    assert.deepEqual(
      injected.map((f) => f.name),
      faults.map((f) => f.name),
    );
    // Contracts were in flight from before each fault until after its process was back.
    for (const f of injected) assert.ok(f.endedAfter < CONTRACTS, `${f.name}: the load outlasted it`);
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
