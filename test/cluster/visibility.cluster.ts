// SQL visibility on the cluster (`npm run test:cluster`): the queries an operator types in the Temporal UI,
// one per search attribute the contract workflow keeps (workflows/search-attributes.ts), find the contract.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { contractWorkflowId } from '../../workflows/definitions';
import { contractSearchAttributes } from '../../workflows/search-attributes';
import { startClusterHarness, type ClusterHarness } from '../support/cluster';
import { agent, eventually, fixedTerms, fund } from '../e2e/support';

let h: ClusterHarness;
let connection: Connection;
let temporal: Client;

before(async () => {
  h = await startClusterHarness();
  connection = await Connection.connect({ address: h.cluster.temporalAddress });
  temporal = new Client({ connection, namespace: 'default' });
});
after(async () => {
  await connection?.close();
  await h?.close();
});

async function found(query: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of temporal.workflow.list({ query })) ids.push(execution.workflowId);
  return ids;
}

test('a query by each search attribute finds the contract on SQL visibility', async () => {
  const client = agent(h);
  const worker = agent(h);
  const bidder = agent(h);
  await fund(h, client.address);
  await fund(h, worker.address);
  await fund(h, bidder.address, 120_000_000n);
  await bidder.lockEligibility('100000000');

  const fdp = await client.createContract(fixedTerms(worker.address));
  await worker.accept(fdp.contractId);
  const { supplementaryMaterials: _none, ...terms } = fixedTerms();
  const auction = await client.createContract({
    ...terms,
    contractType: 'auction',
    awardMethod: 'open',
    verificationMode: 'standard',
    amount: '5000000',
  });
  await bidder.quote(auction.contractId, { price: '2000000' });

  const fdpId = contractWorkflowId(fdp.contractId);
  const auctionId = contractWorkflowId(auction.contractId);
  const soon = new Date(Date.now() + 10 * 60_000).toISOString();
  const queries: Record<string, [string, string]> = {
    ContractStatus: [`ContractStatus = 'matched' AND Client = '${client.address}'`, fdpId],
    ContractCode: [`ContractCode = 'AOS' AND Client = '${client.address}'`, auctionId],
    Client: [`Client = '${client.address}' AND ContractCode = 'FDP'`, fdpId],
    Worker: [`Worker = '${worker.address}'`, fdpId],
    NextDeadline: [
      `NextDeadline > '${soon}' AND Client = '${client.address}' AND ContractCode = 'FDP'`,
      fdpId,
    ],
    QuoteCount: [`QuoteCount = 1 AND Client = '${client.address}'`, auctionId],
  };
  assert.deepEqual(
    Object.keys(queries).sort(),
    contractSearchAttributes.map((k) => k.name).sort(),
    'one query per search attribute',
  );
  for (const [name, [query, expected]] of Object.entries(queries)) {
    const ids = await eventually(
      () => found(query),
      (list) => list.length === 1,
      30_000,
    );
    assert.deepEqual(ids, [expected], `${name}: ${query}`);
  }
});
