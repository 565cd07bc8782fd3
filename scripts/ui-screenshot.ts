// A contract shown in the Temporal UI, decoded by the codec server, as a PNG: runs one direct contract
// through the SDK against a running service (created, accepted, delivered, approved) and has headless
// Chromium photograph its workflow page. The service must be the embedded default (`npm start`), whose
// UI decodes with the API's /codec.
//
//   npx tsx scripts/ui-screenshot.ts --api http://127.0.0.1:3000 --ui http://127.0.0.1:8233 \
//     --secrets .data/secrets.json --out /tmp/ui-contract.png   (default: the data dir's secrets file)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAgentClient, createOperatorClient, randomPrivateKey } from '../sdk/typescript';
import { dataDirOf, dataFile } from '../store/data-files';
import { contractWorkflowId } from '../workflows/definitions';

const { values } = parseArgs({
  options: {
    api: { type: 'string', default: 'http://127.0.0.1:3000' },
    ui: { type: 'string', default: 'http://127.0.0.1:8233' },
    secrets: { type: 'string', default: dataFile(dataDirOf(), 'secrets') },
    out: { type: 'string', default: '/tmp/ui-contract.png' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});

const HOUR = 3_600_000;

async function main(): Promise<void> {
  const { operatorToken } = JSON.parse(readFileSync(values.secrets, 'utf8')) as { operatorToken: string };
  const operator = createOperatorClient({ baseUrl: values.api, token: operatorToken });
  const client = createAgentClient({ baseUrl: values.api, privateKey: randomPrivateKey() });
  const worker = createAgentClient({ baseUrl: values.api, privateKey: randomPrivateKey() });
  for (const agent of [client, worker])
    await operator.deposit({ address: agent.address, amount: '10000000' });
  const at = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
  const { contractId } = await client.createContract({
    contractType: 'fixed',
    awardMethod: 'direct',
    worker: worker.address,
    taskDescription: 'Translate the attached README into French, keeping the code blocks as they are.',
    acceptanceCriteria: ['every section translated', 'code blocks unchanged'],
    amount: '2500000',
    deadlines: { match: at(1), withdrawal: at(2), delivery: at(3), review: at(4) },
  });
  await worker.accept(contractId);
  await worker.deliver(contractId, {
    uri: 'https://files.example/readme-fr.enc',
    sha256: 'cd'.repeat(32),
    key: 'delivery-secret-key',
    summary: 'README translated, code blocks untouched',
    confidence: 0.9,
  });
  await client.approve(contractId);
  const page = `${values.ui}/namespaces/default/workflows/${encodeURIComponent(contractWorkflowId(contractId))}`;
  // --no-sandbox: Chromium's sandbox needs user namespaces, which containers often lack.
  const chromium = spawnSync(
    values.chromium,
    [
      '--headless',
      '--no-sandbox',
      '--hide-scrollbars',
      `--screenshot=${values.out}`,
      '--window-size=1400,1800',
      '--virtual-time-budget=15000',
      page,
    ],
    { encoding: 'utf8' },
  );
  if (chromium.status !== 0) throw new Error(`chromium failed (${chromium.status}): ${chromium.stderr}`);
  console.log(`${contractId}: ${page}\nscreenshot: ${values.out}`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
