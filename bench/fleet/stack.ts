// What the fleet benchmarks run on: the dev server on its file (service/dev-server.ts, as `npm start`
// starts it), the contract worker and the shadow worker each in a process of their own
// (bench/fleet/worker.ts), and a Temporal client that creates contracts with the function the API's
// POST /contracts calls (api/contracts/gateway.ts `create`) and shadows with the same Update-with-start.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { agentOwner, openLedger } from '../../store/ledger';
import { openRecords } from '../../store/records';
import { randomContractId } from '../../api/contracts/ids';
import { createContractGateway } from '../../api/contracts/gateway';
import { startDevServer, type DevServer } from '../../service/dev-server';
import { loadSettings } from '../../service/settings';
import { connectTemporalClient } from '../../service/temporal-client';
import { freePort } from '../../service/postgres-server';
import type { ContractWorkerTuning } from '../../service/worker';
import { TASK_QUEUE } from '../../temporal.config';
import { CONTRACT_WORKFLOW_TYPE, type ContractInput } from '../../workflows/definitions';
import { validateContractTerms } from '../../workflows/rules/contract-terms';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { contractInput } from '../../api/contracts/input';
import { CLIENT, HOUR, WORKER, contractBody } from '../../test/support/fixtures';
import { dataFile } from '../../store/data-files';
import { CURSOR_KEY, OPERATOR_TOKEN, PAYLOAD_CODEC_KEY, VAULT_MASTER_KEY } from '../../test/support/harness';
import { shadowContract, shadowUpdate, type ShadowShape } from '../contracts/shadow-workflow';
import { SHADOW_QUEUE } from '../contracts/shadow-worker';

export type Fleet = 'contract' | 'shadow';
export const FLEETS: readonly Fleet[] = ['contract', 'shadow'];

/** The shadow of a contract created and left to its acceptance deadline: escrow, upsert, timer; refund, upsert, record. */
export function idleShadowShape(deadlineAt: number): ShadowShape {
  return {
    activities: { created: 0 },
    localActivities: { created: 1 },
    messages: 2,
    finalActivities: 0,
    finalUpsert: false,
    deadline: { at: deadlineAt, localActivities: 1, activities: 1 },
  };
}

/**
 * A direct-award FDP contract whose Worker never answers: it ends at its acceptance (match) deadline.
 * Built as POST /contracts builds it (the same checks and input, history version included).
 */
function idleContractInput(deadlineAt: number): ContractInput {
  const checked = validateContractTerms(contractBody(WORKER, {}, deadlineAt - HOUR), Date.now(), CLIENT);
  if (!checked.ok) throw new Error(`fleet terms refused: ${JSON.stringify(checked.errors)}`);
  return contractInput(randomContractId(), checked.terms, DEFAULT_PARAMS);
}

interface ChildWorker {
  pid: number;
  stop(): Promise<void>;
}

async function startChildWorker(role: Fleet, env: NodeJS.ProcessEnv): Promise<ChildWorker> {
  const child: ChildProcess = fork(join(import.meta.dirname, 'worker.ts'), [role], {
    env,
    execArgv: ['--import', 'tsx'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${role} worker exited with ${code} before it was ready`)));
  });
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : NaN;
}

export interface FleetStack {
  devServer: DevServer;
  workers: Partial<Record<Fleet, ChildWorker>>;
  /** Creates one contract (or shadow) that ends at `deadlineAt` unless told otherwise. */
  create(fleet: Fleet, deadlineAt: number, index: number): Promise<void>;
  /** How many of the fleet's workflows are still running (visibility). */
  running(fleet: Fleet): Promise<number>;
  /** The dev server's SQLite file and its WAL, in MB. */
  dbMb(): number;
  close(): Promise<void>;
}

export async function startFleetStack(
  options: {
    sqlitePragmas?: readonly string[];
    tuning?: ContractWorkerTuning;
    workers?: readonly Fleet[];
  } = {},
): Promise<FleetStack> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
  const devServer = await startDevServer(dir, 1, {
    port: await freePort(),
    uiPort: await freePort(),
    ...(options.sqlitePragmas ? { sqlitePragmas: options.sqlitePragmas } : {}),
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENCONTRACT_DATA_DIR: dir,
    OPENCONTRACT_LEDGER: `sqlite:${dataFile(dir, 'ledger')}`,
    OPERATOR_TOKEN,
    VAULT_MASTER_KEY,
    PAYLOAD_CODEC_KEY,
    CURSOR_KEY,
    TEMPORAL_ADDRESS: devServer.address,
    TEMPORAL_NAMESPACE: 'default',
    ...(options.tuning ? { BENCH_TUNING: JSON.stringify(options.tuning) } : {}),
  };
  const settings = loadSettings(env);
  const ledger = await openLedger(settings.ledger);
  await ledger.deposit({ id: 'bench-fleet', asset: 'USDC', to: agentOwner(CLIENT), amount: 10n ** 18n });
  await ledger.close();
  const records = await openRecords(settings.ledger);
  const workers: Partial<Record<Fleet, ChildWorker>> = {};
  for (const fleet of options.workers ?? FLEETS) workers[fleet] = await startChildWorker(fleet, env);
  const { client, connection } = await connectTemporalClient({ codecKey: settings.payloadCodecKey, env });
  const gateway = createContractGateway({
    client,
    taskQueue: TASK_QUEUE,
    records,
    cursorKey: settings.cursorKey,
  });
  const types: Record<Fleet, string> = { contract: CONTRACT_WORKFLOW_TYPE, shadow: shadowContract.name };

  return {
    devServer,
    workers,
    async create(fleet, deadlineAt, index) {
      if (fleet === 'contract') {
        await gateway.create(idleContractInput(deadlineAt), 'fleet contract');
        return;
      }
      await client.workflow.executeUpdateWithStart(shadowUpdate('created'), {
        startWorkflowOperation: new WithStartWorkflowOperation(shadowContract, {
          workflowId: `shadow-${deadlineAt}-${index}`,
          taskQueue: SHADOW_QUEUE,
          args: [idleShadowShape(deadlineAt)],
          workflowIdConflictPolicy: 'FAIL',
        }),
      });
    },
    async running(fleet) {
      const { count } = await client.workflow.count(
        `WorkflowType = "${types[fleet]}" AND ExecutionStatus = "Running"`,
      );
      return count;
    },
    dbMb() {
      const size = (file: string) => {
        try {
          return statSync(file).size;
        } catch {
          return 0;
        }
      };
      return (size(devServer.dbFile) + size(`${devServer.dbFile}-wal`)) / 1e6;
    },
    async close() {
      for (const worker of Object.values(workers)) await worker?.stop();
      await connection.close();
      await records.close();
      await devServer.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
