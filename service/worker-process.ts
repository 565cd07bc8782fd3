// A contract worker connected from the environment's Temporal settings, with its own ledger connection.
import { NativeConnection, type Worker } from '@temporalio/worker';
import { openLedger } from '../store/ledger';
import { openRecords } from '../store/records';
import { openFeed } from '../store/agent-feed';
import { openOutcomeLog } from '../store/outcomes';
import { TASK_QUEUE, temporalConnectConfig } from '../temporal.config';
import type { Settings } from './settings';
import { workerDataConverter } from './temporal-client';
import { createContractWorker, startReconciler, WORKER_SHUTDOWN, type ContractWorkerTuning } from './worker';
import { prebuiltWorkflowBundle } from './workflow-bundle';

export interface RunningWorker {
  worker: Worker;
  /** Stops polling, lets running tasks finish (WORKER_SHUTDOWN bounds it), then closes the connection and the ledger. */
  stop(): Promise<void>;
}

export async function startWorker(
  settings: Settings,
  env: NodeJS.ProcessEnv = process.env,
  tuning?: ContractWorkerTuning,
  log: (line: string) => void = (line) => console.log(line),
): Promise<RunningWorker> {
  const config = temporalConnectConfig(env);
  const connection = await NativeConnection.connect(config.connectionOptions);
  const ledger = await openLedger(settings.ledger);
  const records = await openRecords(settings.ledger);
  const outcomes = await openOutcomeLog(settings.ledger);
  const feed = await openFeed(settings);
  const worker = await createContractWorker({
    connection,
    namespace: config.namespace ?? 'default',
    taskQueue: TASK_QUEUE,
    ledger,
    records,
    outcomes,
    feed: { store: feed, allowPrivate: settings.webhookAllowPrivate, hostRate: settings.webhookHostRate },
    dataConverter: workerDataConverter(settings.payloadCodecKey),
    workflowBundle: await prebuiltWorkflowBundle(),
    ...(tuning === undefined ? {} : { tuning }),
  });
  const running = worker.run();
  await startReconciler(worker.client!);
  return {
    worker,
    async stop() {
      const started = Date.now();
      log(
        `worker: stopping: no new tasks; finishing those in flight (up to ${WORKER_SHUTDOWN.shutdownGraceTime})`,
      );
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      log(`worker: stopped after ${Date.now() - started} ms: every task in flight finished or handed back`);
      await connection.close();
      await ledger.close();
      await records.close();
      await outcomes.close();
      await feed.close();
    },
  };
}
