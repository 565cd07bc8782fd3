// A fleet benchmark's worker, in a process of its own so that its RSS is the worker's alone:
// `contract` runs the service's worker exactly as `npm start -- worker` does (service/worker-process.ts),
// `shadow` the shadow workflow's worker with the same cache size. Tells its parent "ready" over IPC
// and stops on SIGTERM. The worker settings come from BENCH_TUNING (JSON), else the service's.
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { loadSettings } from '../../service/settings';
import { CONTRACT_WORKER_TUNING, type ContractWorkerTuning } from '../../service/worker';
import { startWorker } from '../../service/worker-process';
import { temporalConnectConfig } from '../../temporal.config';
import { createShadowWorker } from '../contracts/shadow-worker';

async function start(role: string, tuning: ContractWorkerTuning): Promise<() => Promise<void>> {
  const settings = loadSettings();
  if (role === 'contract') {
    const running = await startWorker(settings, process.env, tuning);
    return () => running.stop();
  }
  const config = temporalConnectConfig();
  const connection = await NativeConnection.connect(config.connectionOptions);
  const worker = await createShadowWorker({
    connection,
    namespace: config.namespace ?? 'default',
    codecKey: settings.payloadCodecKey,
    tuning,
  });
  const running = worker.run();
  return async () => {
    worker.shutdown();
    await running;
    await connection.close();
  };
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const tuning: ContractWorkerTuning = process.env.BENCH_TUNING
    ? (JSON.parse(process.env.BENCH_TUNING) as ContractWorkerTuning)
    : CONTRACT_WORKER_TUNING;
  const stop = await start(process.argv[2] ?? 'contract', tuning);
  process.once('SIGTERM', () => {
    void stop().then(() => process.exit(0));
  });
  process.send?.('ready');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
