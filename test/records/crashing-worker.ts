// A contract worker in its own process whose `settle` activity dies the hard way: it runs the real
// settle (the ledger batch commits) and then SIGKILLs its own process before the reply reaches
// Temporal. The worker-crash test (crash-during-settlement.test.ts) runs it as a child process.
// Environment: the service's settings (service/settings.ts) and CRASH_TASK_QUEUE.
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { openLedger } from '../../activities/ledger';
import { openRecords } from '../../activities/records';
import { loadSettings } from '../../service/settings';
import { workerDataConverter } from '../../service/temporal-client';
import { CONTRACT_WORKFLOWS_PATH } from '../../service/worker';

async function main(): Promise<void> {
  const settings = loadSettings(process.env);
  const ledger = await openLedger(settings.ledger);
  const records = await openRecords(settings.ledger);
  const activities = createActivities({ ledger, records });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: process.env.CRASH_TASK_QUEUE!,
    workflowsPath: CONTRACT_WORKFLOWS_PATH,
    dataConverter: workerDataConverter(settings.payloadCodecKey),
    activities: {
      ...activities,
      async settle(input: Parameters<typeof activities.settle>[0]) {
        await activities.settle(input);
        process.kill(process.pid, 'SIGKILL');
        return new Promise<never>(() => {});
      },
    },
  });
  await worker.run();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
