// Contracts end to end (FDP: create -> accept -> deliver -> approve -> settled) through the HTTP API
// with the SDK, beside a shadow workflow of the same shape driven directly by a Temporal client, in
// one run on one dev server (real visibility) with the real SQLite ledger. Then one message (accept)
// through the API against the same Update sent straight to the contract workflow with a Temporal client.
// Run: npx tsx bench/contracts/run.ts
//   BENCH_CONTRACTS (default 100) contracts per side (0: only the accepts), BENCH_CONCURRENCY (default 16) in flight;
//   BENCH_ACCEPTS (default 100) accepts per side and concurrency, at 1 and BENCH_ACCEPT_CONCURRENCY (32).
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { acceptUpdate, contractWorkflowId } from '../../workflows/definitions';
import { agent, DELIVERY, fixedTerms, fund } from '../../test/e2e/support';
import { startServiceHarness, type ServiceHarness } from '../../test/support/service';
import { createTemporalClient } from '../../service/temporal-client';
import { FDP_CALLS, fdpContract, fundedPairs as agents, type Agent } from './fdp';
import { pool } from './pool';
import { createShadowWorker, SHADOW_QUEUE } from './shadow-worker';
import { DISPUTE_SHAPE, FDP_SHAPE, shadowContract, shadowUpdate, type ShadowShape } from './shadow-workflow';

const CONTRACTS = Number(process.env.BENCH_CONTRACTS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ACCEPTS = Number(process.env.BENCH_ACCEPTS ?? 100);
const ACCEPT_CONCURRENCY = Number(process.env.BENCH_ACCEPT_CONCURRENCY ?? 32);
const BA_COUNT = 3;
const ELIGIBILITY_STAKE = 100_000_000n; // baEligibilityStake (default params)

interface PathRun {
  name: string;
  /** The calls in order: the first creates, the last waits for the settled workflow. */
  calls: string[];
  shape: ShadowShape;
  api(temporal: Client, pair: { client: Agent; worker: Agent }, lat: Latencies): Promise<void>;
}

class Latencies {
  private readonly samples = new Map<string, number[]>();
  async time<T>(call: string, run: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const result = await run();
    const list = this.samples.get(call) ?? [];
    list.push(performance.now() - start);
    this.samples.set(call, list);
    return result;
  }
  percentile(call: string, p: number): number {
    const list = [...(this.samples.get(call) ?? [])].sort((a, b) => a - b);
    return list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? NaN;
  }
}

function fdpPath(): PathRun {
  return {
    name: 'FDP',
    calls: [...FDP_CALLS],
    shape: FDP_SHAPE,
    api: (temporal, pair, lat) => fdpContract(temporal, pair, (call, run) => lat.time(call, run)),
  };
}

/** FDP disputed by the Client and decided by a panel of three Backup Agents (the only eligible ones). */
async function disputePath(h: ServiceHarness): Promise<PathRun> {
  const bas = Array.from({ length: BA_COUNT }, () => agent(h));
  for (const ba of bas) {
    await fund(h, ba.address, 10n ** 15n);
    await ba.lockEligibility(ELIGIBILITY_STAKE.toString());
  }
  return {
    name: 'dispute (3 BAs)',
    calls: ['created', 'accept', 'deliver', 'dispute', 'vote', 'settled'],
    shape: DISPUTE_SHAPE,
    async api(temporal, { client, worker }, lat) {
      const terms = fixedTerms(worker.address);
      const { contractId } = await lat.time('created', () => client.createContract(terms));
      await lat.time('accept', () => worker.accept(contractId));
      await lat.time('deliver', () => worker.deliver(contractId, DELIVERY));
      const disputed = await lat.time('dispute', () => client.dispute(contractId, ['met', 'not met']));
      // Concurrent disputes may take every seat of the small registry: a dispute waits its turn for a
      // panel (docs/v2c.md "Waiting for seats"), seated once another settles. Waiting is not timed.
      const panel = await seatedPanel(client, contractId, membersOf(disputed));
      for (const ba of bas.filter((b) => panel.includes(b.address)))
        await lat.time('vote', () => ba.vote(contractId, ['met', 'not met']));
      await lat.time('settled', () => temporal.workflow.getHandle(contractWorkflowId(contractId)).result());
    },
  };
}

/** The Backup Agents a party's view names (none in a public view, or before a panel is seated). */
function membersOf(view: object): readonly string[] {
  return 'backupAgents' in view && Array.isArray(view.backupAgents) ? (view.backupAgents as string[]) : [];
}

/** The contract's panel once seated: its Backup Agents, read again while the contract waits for seats. */
async function seatedPanel(
  client: { getContract(id: string): Promise<object> },
  contractId: string,
  seated: readonly string[],
): Promise<readonly string[]> {
  for (let members = seated; members.length === 0;) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const view = await client.getContract(contractId);
    members = membersOf(view);
    if (members.length > 0) return members;
  }
  return seated;
}

async function apiContracts(
  h: ServiceHarness,
  temporal: Client,
  path: PathRun,
  count: number,
  lat: Latencies,
) {
  const pairs = await agents(h, CONCURRENCY);
  return pool(count, CONCURRENCY, (i) => path.api(temporal, pairs[i % pairs.length]!, lat));
}

/** The shadow's message order: each Update name as often as the path sends it. */
function messagesOf(path: PathRun): string[] {
  const names = path.calls.slice(0, -1);
  const repeats = path.shape.messages - names.length;
  const last = names[names.length - 1]!;
  return [...names, ...Array.from({ length: repeats }, () => last)];
}

async function shadowContracts(temporal: Client, path: PathRun, run: string, count: number, lat: Latencies) {
  const [first, ...rest] = messagesOf(path);
  return pool(count, CONCURRENCY, async (i) => {
    const workflowId = `shadow-${run}-${i}`;
    await lat.time(first!, () =>
      temporal.workflow.executeUpdateWithStart(shadowUpdate(first!), {
        startWorkflowOperation: new WithStartWorkflowOperation(shadowContract, {
          workflowId,
          taskQueue: SHADOW_QUEUE,
          args: [path.shape],
          workflowIdConflictPolicy: 'FAIL',
        }),
      }),
    );
    const handle = temporal.workflow.getHandle(workflowId);
    for (const name of rest) await lat.time(name, () => handle.executeUpdate(shadowUpdate(name)));
    await lat.time('settled', () => handle.result());
  });
}

async function comparePath(h: ServiceHarness, temporal: Client, path: PathRun): Promise<number> {
  const warm = Math.min(CONCURRENCY, CONTRACTS);
  await apiContracts(h, temporal, path, warm, new Latencies());
  await shadowContracts(temporal, path, `${path.name}-warmup`, warm, new Latencies());
  const apiLat = new Latencies();
  const shadowLat = new Latencies();
  // Side by side, at the same time: load from other processes weighs on both alike.
  const [apiSeconds, shadowSeconds] = await Promise.all([
    apiContracts(h, temporal, path, CONTRACTS, apiLat),
    shadowContracts(temporal, path, path.name, CONTRACTS, shadowLat),
  ]);
  const [apiRate, shadowRate] = [CONTRACTS / apiSeconds, CONTRACTS / shadowSeconds];
  console.log(
    `${path.name} end to end: ${CONTRACTS} contracts per side, concurrency ${CONCURRENCY} per side, both sides at once`,
  );
  console.log('call        API p50   API p95  shadow p50 shadow p95   (ms)');
  for (const call of path.calls) {
    console.log(
      `${call.padEnd(9)} ${ms(apiLat.percentile(call, 50))}  ${ms(apiLat.percentile(call, 95))}  ${ms(shadowLat.percentile(call, 50))}   ${ms(shadowLat.percentile(call, 95))}`,
    );
  }
  const ratio = apiRate / shadowRate;
  console.log(
    `settled/s: product ${apiRate.toFixed(2)}, shadow ${shadowRate.toFixed(2)}; ratio ${ratio.toFixed(2)} (goal >= 0.9)\n`,
  );
  return ratio;
}

/** Created contracts ready to accept (the Client creates, the Worker's address is named). */
async function createdContracts(h: ServiceHarness, count: number) {
  const pairs = await agents(h, 8);
  const made: Array<{ id: string; worker: ReturnType<typeof agent> }> = [];
  await pool(count, 8, async (i) => {
    const { client, worker } = pairs[i % pairs.length]!;
    const { contractId } = await client.createContract(fixedTerms(worker.address));
    made.push({ id: contractId, worker });
  });
  return made;
}

/**
 * The accepts alternate in rounds (a round through the API, then one sent directly, each of at least
 * the concurrency and 10), so a change of load from other processes weighs on both sides alike. The
 * process's CPU time (every thread: API, SDK, workers) is summed per side: nothing else runs in it.
 */
async function acceptOverhead(h: ServiceHarness, temporal: Client, concurrency: number) {
  const lat = new Latencies();
  const cpu = { api: 0, direct: 0 };
  const viaApi = await createdContracts(h, ACCEPTS);
  const direct = await createdContracts(h, ACCEPTS);
  const round = Math.max(concurrency, 10);
  const measured = async (side: keyof typeof cpu, count: number, job: (i: number) => Promise<void>) => {
    const before = process.cpuUsage();
    await pool(count, concurrency, job);
    const used = process.cpuUsage(before);
    cpu[side] += (used.user + used.system) / 1000;
  };
  for (let from = 0; from < ACCEPTS; from += round) {
    const count = Math.min(round, ACCEPTS - from);
    await measured('api', count, async (i) => {
      const { id, worker } = viaApi[from + i]!;
      await lat.time('api', () => worker.accept(id));
    });
    await measured('direct', count, async (i) => {
      const { id, worker } = direct[from + i]!;
      await lat.time('direct', () =>
        temporal.workflow
          .getHandle(contractWorkflowId(id))
          .executeUpdate(acceptUpdate, { args: [{ caller: worker.address.toLowerCase() }] }),
      );
    });
  }
  return {
    api: lat.percentile('api', 50),
    direct: lat.percentile('direct', 50),
    cpuApi: cpu.api / ACCEPTS,
    cpuDirect: cpu.direct / ACCEPTS,
  };
}

const ms = (v: number) => v.toFixed(1).padStart(8);

async function main(): Promise<void> {
  // A tally settles at the end of its appeal window (docs/v2c.md): 1 ms here, so the dispute path settles
  // right after its last vote, as its shadow does, instead of 24 hours later.
  const h = await startServiceHarness({ params: { appealWindow: 1 } });
  const temporal = createTemporalClient({
    connection: h.env.connection,
    namespace: h.env.namespace ?? 'default',
    codecKey: h.settings.payloadCodecKey,
  });
  const shadowWorker = await createShadowWorker({
    connection: h.env.nativeConnection,
    namespace: h.env.namespace ?? 'default',
    codecKey: h.settings.payloadCodecKey,
  });
  const shadowRunning = shadowWorker.run();
  try {
    if (CONTRACTS > 0) {
      await comparePath(h, temporal, fdpPath());
      await comparePath(h, temporal, await disputePath(h));
    }

    console.log(`accept: API vs the same Update sent directly, ${ACCEPTS} each, p50 in ms`);
    console.log('concurrency      API   direct   ratio (goal <= 1.2)   CPU ms per accept: API   direct');
    for (const c of [1, ACCEPT_CONCURRENCY]) {
      const { api, direct, cpuApi, cpuDirect } = await acceptOverhead(h, temporal, c);
      console.log(
        `${String(c).padStart(11)} ${ms(api)} ${ms(direct)}   ${(api / direct).toFixed(2)}                     ${ms(cpuApi)} ${ms(cpuDirect)}`,
      );
    }
  } finally {
    shadowWorker.shutdown();
    await shadowRunning;
    await h.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
