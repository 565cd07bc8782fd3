// A contract worker in its own process whose `settle` activity (or CRASH_ACTIVITY) dies the hard way:
// it runs the real activity (the ledger batch or the read model's write commits) and then SIGKILLs its
// own process before the reply reaches Temporal; with CRASH_BEFORE=1 it dies before running it. For
// `writeContract`, CRASH_WHEN_STATUS names the status whose write dies (the others run). The worker-crash tests (crash-during-settlement.test.ts) run it
// as a child process. Environment: the service's settings (service/settings.ts) and CRASH_TASK_QUEUE.
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { openLedger } from '../../store/ledger';
import { openRecords } from '../../store/records';
import { openOutcomeLog } from '../../store/outcomes';
import { loadSettings } from '../../service/settings';
import { workerDataConverter } from '../../service/temporal-client';
import { CONTRACT_WORKFLOWS_PATH } from '../../service/worker';

async function main(): Promise<void> {
  const settings = loadSettings(process.env);
  const ledger = await openLedger(settings.ledger);
  const records = await openRecords(settings.ledger);
  const outcomes = await openOutcomeLog(settings.ledger);
  const activities = createActivities({ ledger, records, outcomes });
  const crashing = (process.env.CRASH_ACTIVITY ?? 'settle') as
    'settle' | 'writeContract' | 'appendOutcomes' | 'lockStake' | 'lockBond';
  const whenStatus = process.env.CRASH_WHEN_STATUS;
  const before = process.env.CRASH_BEFORE === '1';
  const real = activities[crashing] as (input: unknown) => Promise<unknown>;
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: process.env.CRASH_TASK_QUEUE!,
    workflowsPath: CONTRACT_WORKFLOWS_PATH,
    dataConverter: workerDataConverter(settings.payloadCodecKey),
    activities: {
      ...activities,
      async [crashing](input: unknown) {
        const status = (input as { view?: { status?: string } }).view?.status;
        if (whenStatus !== undefined && status !== whenStatus) return real(input);
        if (!before) await real(input);
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
