// `npm run cluster`: the cluster profile (service/cluster.ts) in the foreground until Ctrl-C or SIGTERM.
// The secrets come from the environment, or are generated for this run (the operator token printed);
// PostgreSQL's data lives in a temp dir removed on stop (a demonstration of the topology, not a data store).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster } from './cluster';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oc-cluster-'));
  const settings = {
    OPERATOR_TOKEN: process.env.OPERATOR_TOKEN || randomBytes(24).toString('base64url'),
    VAULT_MASTER_KEY: process.env.VAULT_MASTER_KEY || randomBytes(32).toString('hex'),
    PAYLOAD_CODEC_KEY: process.env.PAYLOAD_CODEC_KEY || randomBytes(32).toString('hex'),
    CURSOR_KEY: process.env.CURSOR_KEY || randomBytes(32).toString('hex'),
  };
  console.log('starting PostgreSQL, the Temporal server, 2 workers and 2 APIs…');
  const cluster = await startCluster({ dir, settings });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping…');
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  for (const url of cluster.apiUrls) console.log(`API:          ${url}  (docs ${url}/docs)`);
  console.log(`Temporal:     ${cluster.temporalAddress} (namespace default)`);
  console.log(
    `PostgreSQL:   ${cluster.postgres.connectionString()} (databases temporal, temporal_visibility, opencontract)`,
  );
  console.log(
    `Processes:    ${[cluster.temporal, ...cluster.workers, ...cluster.apis].map((p) => `${p.name}=${p.pid}`).join(' ')}`,
  );
  if (!process.env.OPERATOR_TOKEN) console.log(`Operator token (this run): ${settings.OPERATOR_TOKEN}`);
  console.log('Ready. Ctrl-C stops everything.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
