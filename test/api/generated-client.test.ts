// A client generated from the published /openapi.json by a standard generator (@hey-api/openapi-ts,
// pinned in devDependencies) drives a contract from creation to settlement against the real stack
// (dev server, worker, SQLite ledger): the document is the only description it has of the API, and
// the only code of ours it uses is the SDK's signedFetch, which adds the signature headers.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { signedFetch } from '../../sdk/typescript';
import { usdc } from '../support/balances';
import { contractBody, DELIVERY_REF, FUNDS, newAgent, PRICE, WORKER_STAKE } from '../support/fixtures';
import { useAppHarness } from '../support/service';

const h = useAppHarness();
const dir = mkdtempSync(join(tmpdir(), 'oc-generated-client-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The generated SDK: one function per operation, named by the generator from method and path. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Generated = Record<string, (options: object) => Promise<any>>;
let sdk: Generated;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let clientModule: { createClient: (config: object) => any; createConfig: (config: object) => object };

/** Generates the client from the document the app publishes, once. */
async function generated(): Promise<void> {
  if (sdk !== undefined) return;
  const published = await h().app.request('/openapi.json');
  assert.equal(published.status, 200);
  writeFileSync(join(dir, 'openapi.json'), await published.text());
  // The generator's own command line, as a user runs it.
  const cli = join(__dirname, '..', '..', 'node_modules', '.bin', 'openapi-ts');
  execFileSync(cli, ['--input', join(dir, 'openapi.json'), '--output', join(dir, 'client')], {
    stdio: 'pipe',
  });
  sdk = (await import(join(dir, 'client', 'sdk.gen.ts'))) as Generated;
  clientModule = await import(join(dir, 'client', 'client', 'index.ts'));
}

/** A generated client for one agent: requests go through app.request, signed with its key. */
function clientOf(privateKey: string) {
  return clientModule.createClient(
    clientModule.createConfig({
      baseUrl: 'http://localhost',
      fetch: signedFetch({ privateKey, fetch: (request) => Promise.resolve(h().app.request(request)) }),
    }),
  );
}

test('a generated client creates, accepts, delivers and approves a contract', async () => {
  await generated();
  const clientAgent = newAgent();
  const workerAgent = newAgent();
  await h().fund(clientAgent.address, FUNDS);
  await h().fund(workerAgent.address, FUNDS);
  const asClient = clientOf(clientAgent.key);
  const asWorker = clientOf(workerAgent.key);

  const created = await sdk.postContracts!({
    client: asClient,
    body: contractBody(workerAgent.address),
    headers: { 'Idempotency-Key': 'generated-client-create' },
  });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  const id = created.data.contractId as string;
  assert.equal(created.data.status, 'created');

  const offered = await sdk.getContractsById!({ client: asWorker, path: { id } });
  assert.equal(offered.data.role, 'worker');
  assert.equal(offered.data.stakeToMatch.workerStake, WORKER_STAKE.toString());

  const accepted = await sdk.postContractsByIdAccept!({ client: asWorker, path: { id } });
  assert.equal(accepted.response.status, 200, JSON.stringify(accepted.error));
  assert.equal(accepted.data.status, 'matched');

  const delivered = await sdk.postContractsByIdDeliveries!({
    client: asWorker,
    path: { id },
    body: DELIVERY_REF,
  });
  assert.equal(delivered.response.status, 200, JSON.stringify(delivered.error));
  assert.equal(delivered.data.status, 'under-review');

  const approved = await sdk.postContractsByIdApprove!({ client: asClient, path: { id } });
  assert.equal(approved.response.status, 200, JSON.stringify(approved.error));
  assert.match(approved.data.status, /^settled/);
  assert.deepEqual(await usdc(h(), clientAgent), [FUNDS - PRICE, 0n]);
  assert.deepEqual(await usdc(h(), workerAgent), [FUNDS + PRICE, 0n]);

  // A refusal comes back as the generated error type: the §12 shape, with the status.
  const again = await sdk.postContractsByIdApprove!({ client: asClient, path: { id } });
  assert.equal(again.response.status, 409);
  assert.equal(again.error.error.code, 'wrong_state');
  // Unsigned (the generator's plain fetch): the route's declared 401.
  const unsigned = await sdk.postContractsByIdApprove!({
    client: clientModule.createClient(
      clientModule.createConfig({ baseUrl: 'http://localhost', fetch: (r: Request) => h().app.request(r) }),
    ),
    path: { id },
  });
  assert.equal(unsigned.response.status, 401);
});
