// The contract worker's memory past its workflow cache, per worker setting (docs/performance.md,
// "Worker settings"). Each setting runs in a process of its own: a contract worker with the service's
// settings plus the setting's, the real SQLite ledger and the codec, on a dev server in memory (the
// time-skipping server fails Update-with-start under concurrency). Up to BENCH_OPEN contracts are
// created (16 at once) within BENCH_CREATE_S seconds, all with one acceptance deadline; the process's
// RSS is read at steps past the cache, and once idle. Then the deadline fires and the fleet drains:
// each contract outside the cache replays its history, refunds its escrow and writes its record.
// Throughput: contracts created and drained per second, against the first setting.
// Run: npx tsx bench/worker/cache-memory.ts   (BENCH_OPEN, default 2000; BENCH_CREATE_S, default 300; BENCH_ROUNDS, default 1)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowClient } from '@temporalio/client';
import { agentOwner, openLedger } from '../../store/ledger';
import { openRecords } from '../../store/records';
import { openOutcomeLog } from '../../store/outcomes';
import { startContract } from '../../api/contracts/gateway';
import { contractInput } from '../../api/contracts/input';
import { contractDataConverter, workerDataConverter } from '../../service/temporal-client';
import {
  CONTRACT_WORKER_TUNING,
  MAX_CACHED_CONTRACTS,
  createContractWorker,
  type ContractWorkerTuning,
} from '../../service/worker';
import { prebuiltWorkflowBundle } from '../../service/workflow-bundle';
import { CLIENT, WORKER, contractBody } from '../../test/support/fixtures';
import { createDevServerEnv } from '../../test/support/temporal';
import { contractWorkflowId } from '../../workflows/definitions';
import { validateContractTerms } from '../../workflows/rules/contract-terms';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { pool } from '../contracts/pool';
import { withThreadHeapLimit } from './thread-heap';
import { load, mean } from '../stats';

const OPEN = Number(process.env.BENCH_OPEN ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const CONCURRENCY = 16;
const CREATE_MS = Number(process.env.BENCH_CREATE_S ?? 300) * 1000;
const IDLE_MS = 20_000;
const HOUR = 3_600_000;

interface Setting {
  name: string;
  tuning?: ContractWorkerTuning;
  /** The workflow thread's V8 old-generation limit (MB); V8's default (from the machine's memory) without. */
  workflowHeapMb?: number;
}

const SETTINGS: Setting[] = [
  { name: 'service settings' },
  { name: 'workflow heap 1536 MB', workflowHeapMb: 1536 },
  { name: 'workflow heap 1024 MB', workflowHeapMb: 1024 },
  { name: '2 workflow threads', tuning: { workflowThreadPoolSize: 2 } },
];
/** BENCH_SETTINGS: which of SETTINGS to run, by index (e.g. "0,2"); all by default. */
const CHOSEN = (process.env.BENCH_SETTINGS ?? SETTINGS.map((_, i) => i).join(',')).split(',').map(Number);

interface Result {
  steps: Array<{ open: number; rss: number }>;
  idle: number;
  peak: number;
  after: number;
  created: number;
  drained: number;
}

const rssMb = () => process.memoryUsage.rss() / 2 ** 20;

async function measure(setting: Setting): Promise<Result> {
  const env = await createDevServerEnv();
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  const config = { kind: 'sqlite', path: join(dir, 'ledger.db') } as const;
  const ledger = await openLedger(config);
  const records = await openRecords(config);
  const outcomes = await openOutcomeLog(config);
  const codecKey = new Uint8Array(32).fill(7);
  const taskQueue = 'bench-cache';
  try {
    await ledger.deposit({ id: 'bench', asset: 'USDC', to: agentOwner(CLIENT), amount: 10n ** 18n });
    const workflowBundle = await prebuiltWorkflowBundle();
    const worker = await withThreadHeapLimit(setting.workflowHeapMb ?? 0, () =>
      createContractWorker({
        connection: env.nativeConnection,
        taskQueue,
        ledger,
        records,
        outcomes,
        dataConverter: workerDataConverter(codecKey),
        workflowBundle,
        tuning: { ...CONTRACT_WORKER_TUNING, ...setting.tuning },
      }),
    );
    const client = new WorkflowClient({
      connection: env.connection,
      dataConverter: contractDataConverter(codecKey),
    });
    return await worker.runUntil(async () => {
      const deadlineAt = Date.now() + CREATE_MS;
      const ids: string[] = [];
      const steps: Result['steps'] = [];
      const marks = new Set([MAX_CACHED_CONTRACTS / 2, MAX_CACHED_CONTRACTS]);
      for (let n = 2 * MAX_CACHED_CONTRACTS; n <= OPEN; n += MAX_CACHED_CONTRACTS) marks.add(n);
      marks.add(OPEN);
      const started = performance.now();
      await pool(OPEN, CONCURRENCY, async () => {
        if (Date.now() > deadlineAt - 15_000) return;
        const body = contractBody(WORKER, {}, deadlineAt - HOUR); // its acceptance deadline: deadlineAt
        const checked = validateContractTerms(body, Date.now(), CLIENT);
        if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
        const input = contractInput(`cm-${ids.length}-${Math.random()}`, checked.terms, DEFAULT_PARAMS);
        await startContract(client, taskQueue, input, 'bench');
        ids.push(input.contractId);
        if (marks.has(ids.length)) steps.push({ open: ids.length, rss: rssMb() });
      });
      if (steps.at(-1)?.open !== ids.length) steps.push({ open: ids.length, rss: rssMb() });
      const created = ids.length / ((performance.now() - started) / 1000);
      await new Promise((r) => setTimeout(r, Math.min(IDLE_MS, deadlineAt - Date.now())));
      const idle = rssMb();
      await new Promise((r) => setTimeout(r, deadlineAt - Date.now()));

      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 500);
      const drainStart = performance.now();
      await pool(ids.length, 32, async (i) => {
        await client.getHandle(contractWorkflowId(ids[i]!)).result();
      });
      const drained = ids.length / ((performance.now() - drainStart) / 1000);
      clearInterval(sampler);
      return { steps, idle, peak, after: rssMb(), created, drained };
    });
  } finally {
    await ledger.close();
    await records.close();
    await outcomes.close();
    await env.teardown();
    rmSync(dir, { recursive: true, force: true });
  }
}

function runChild(index: number): Promise<Result> {
  const child = fork(import.meta.filename, ['child', String(index)], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as Result));
    child.once('exit', (code) => reject(new Error(`setting ${index} exited with ${code}`)));
  });
}

async function main(): Promise<void> {
  console.log(
    `worker memory past the cache (maxCachedWorkflows ${MAX_CACHED_CONTRACTS}), ${OPEN} contracts per setting; load ${load()}`,
  );
  const results = SETTINGS.map(() => [] as Result[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const i of CHOSEN) {
      const setting = SETTINGS[i]!;
      const r = await runChild(i);
      results[i]!.push(r);
      const steps = r.steps.map((s) => `${s.open}: ${s.rss.toFixed(0)}`).join(', ');
      console.log(
        `round ${round + 1}, ${setting.name}: RSS MB at ${steps}; idle ${r.idle.toFixed(0)}; draining peak ${r.peak.toFixed(0)}, after ${r.after.toFixed(0)}; ` +
          `created ${r.created.toFixed(1)}/s, drained ${r.drained.toFixed(1)}/s; load ${load()}`,
      );
    }
  }
  const base = {
    created: mean(results[0]!.map((r) => r.created)),
    drained: mean(results[0]!.map((r) => r.drained)),
  };
  console.log(
    '\nsetting                  RSS at cache  at max  idle  drain peak  created/s  ratio  drained/s  ratio',
  );
  for (const i of CHOSEN) {
    const setting = SETTINGS[i]!;
    const rs = results[i]!;
    const at = (open?: number) =>
      mean(
        rs.map(
          (r) => (open === undefined ? r.steps.at(-1) : r.steps.find((s) => s.open === open))?.rss ?? NaN,
        ),
      );
    const created = mean(rs.map((r) => r.created));
    const drained = mean(rs.map((r) => r.drained));
    console.log(
      `${setting.name.padEnd(24)} ${at(MAX_CACHED_CONTRACTS).toFixed(0).padStart(12)}  ${at().toFixed(0).padStart(6)}  ${mean(
        rs.map((r) => r.idle),
      )
        .toFixed(0)
        .padStart(4)}  ` +
        `${mean(rs.map((r) => r.peak))
          .toFixed(0)
          .padStart(
            10,
          )}  ${created.toFixed(1).padStart(9)}  ${(created / base.created).toFixed(2)}  ${drained.toFixed(1).padStart(9)}  ${(drained / base.drained).toFixed(2)}`,
    );
  }
}

if (process.argv[2] === 'child') {
  measure(SETTINGS[Number(process.argv[3])]!)
    .then((r) => process.send!(r, () => process.exit(0)))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
