// The end-to-end target "cluster" (OPENCONTRACT_E2E_TARGET=cluster, `npm run test:cluster`): the same
// ServiceHarness the e2e suites use, on the cluster profile — two APIs taken in turn by each new client,
// two workers on the one task queue, the ledger on PostgreSQL.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner, openLedger } from '../../store/ledger';
import { createOperatorClient } from '../../sdk/typescript';
import { startCluster, type Cluster } from '../../service/cluster';
import { loadSettings } from '../../service/settings';
import {
  CURSOR_KEY,
  OPERATOR_TOKEN,
  PAYLOAD_CODEC_KEY,
  VAULT_MASTER_KEY,
  type ServiceHarness,
} from './harness';

export interface ClusterHarness extends ServiceHarness {
  cluster: Cluster;
}

/**
 * What an API process logged of an error it answered with a 500, printed where CI keeps it: a process's log
 * lives only as long as the process (a restart starts it afresh).
 */
function reportUnexpectedErrors(cluster: Cluster): void {
  for (const api of cluster.apis) {
    const log = api.log();
    const at = log.indexOf('unexpected API error');
    if (at >= 0) console.error(`${api.name} logged an unexpected error:\n${log.slice(at, at + 4_000)}`);
  }
}

export async function startClusterHarness(options: { params?: object } = {}): Promise<ClusterHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-cluster-'));
  const settingsEnv: NodeJS.ProcessEnv = {
    OPERATOR_TOKEN,
    VAULT_MASTER_KEY,
    PAYLOAD_CODEC_KEY,
    CURSOR_KEY,
    ...(options.params ? { OPENCONTRACT_PARAMS: JSON.stringify(options.params) } : {}),
  };
  const cluster = await startCluster({ dir, settings: settingsEnv });
  const settings = loadSettings({
    ...settingsEnv,
    OPENCONTRACT_DATA_DIR: dir,
    TEMPORAL_ADDRESS: cluster.temporalAddress,
    OPENCONTRACT_LEDGER: cluster.ledgerUrl,
  });
  const observer = await openLedger(settings.ledger);
  const services = [...cluster.workers, ...cluster.apis];
  let turn = 0;
  const harness: ClusterHarness = {
    cluster,
    get env(): TestWorkflowEnvironment {
      throw new Error('the cluster target has no test environment: use cluster.temporalAddress');
    },
    settings,
    url: () => cluster.apiUrls[turn++ % cluster.apiUrls.length]!,
    operator: () => createOperatorClient({ baseUrl: harness.url(), token: settings.operatorToken }),
    balances: (address) => observer.balances(agentOwner(address)),
    ledger: () => observer,
    async stopApiAndWorker() {
      reportUnexpectedErrors(cluster);
      for (const p of [...services].reverse()) await p.kill('SIGTERM');
    },
    async startApiAndWorker() {
      await Promise.all(cluster.workers.map((w) => w.start()));
      for (const api of cluster.apis) await api.start();
    },
    async restart() {
      await harness.stopApiAndWorker();
      await harness.startApiAndWorker();
    },
    async close() {
      reportUnexpectedErrors(cluster);
      await observer.close();
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
