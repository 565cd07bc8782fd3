// SQL visibility on the cluster (`npm run test:cluster`): the queries an operator types in the Temporal UI,
// one per search attribute the contract workflow keeps (workflows/search-attributes.ts), find the contract.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { contractWorkflowId } from '../../workflows/definitions';
import { contractSearchAttributes } from '../../workflows/search-attributes';
import type { AgentClient } from '../../sdk/typescript';
import type { ClusterHarness } from '../support/cluster';
import { E2E_TARGET, useServiceHarness } from '../support/service';
import { agent, DELIVERY, eventually, fixedTerms, fund } from '../e2e/support';

assert.equal(E2E_TARGET, 'cluster', "SQL visibility is the cluster's: OPENCONTRACT_E2E_TARGET=cluster");
// The cluster the e2e suites run on when test/cluster/e2e.cluster.ts imports them all (one start).
const harness = useServiceHarness();

async function found(temporal: Client, query: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const execution of temporal.workflow.list({ query })) ids.push(execution.workflowId);
  return ids;
}

test('a query by each search attribute finds the contract on SQL visibility', async () => {
  const h = harness() as ClusterHarness;
  const connection = await Connection.connect({ address: h.cluster.temporalAddress });
  try {
    await queryEachAttribute(h, new Client({ connection, namespace: 'default' }));
  } finally {
    await connection.close();
  }
});

async function queryEachAttribute(h: ClusterHarness, temporal: Client): Promise<void> {
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
  const stuck = await contractWaitingForOperator(h);

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
    NeedsOperator: [
      `NeedsOperator = true AND Client = '${stuck.client.address}'`,
      contractWorkflowId(stuck.id),
    ],
  };
  // A contract carries these two only once it has waited for a full panel, which a registry shared with
  // the other suites cannot be made to refuse here (test/workflows covers the wait): the SQL visibility
  // store must still accept a query on each, answering no contract of this client.
  const panelWaitQueries = [
    `PanelPending = true AND Client = '${client.address}'`,
    `AwaitingArbiter = true AND Client = '${client.address}'`,
    `Milestone = 0 AND Client = '${client.address}'`,
  ];
  assert.deepEqual(
    [...Object.keys(queries), 'PanelPending', 'AwaitingArbiter', 'Milestone'].sort(),
    contractSearchAttributes.map((k) => k.name).sort(),
    'one query per search attribute',
  );
  for (const query of panelWaitQueries) assert.deepEqual(await found(temporal, query), [], query);
  for (const [name, [query, expected]] of Object.entries(queries)) {
    const ids = await eventually(
      () => found(temporal, query),
      (list) => list.length === 1,
      30_000,
    );
    assert.deepEqual(ids, [expected], `${name}: ${query}`);
  }
  await releaseByOperator(h, stuck);
}

interface Stuck {
  id: string;
  client: AgentClient;
  approval: Promise<void>;
}

/**
 * An FDP whose settlement the ledger refuses (the Worker Stake voided out of band before the approval,
 * as test/hostile/needs-operator.test.ts does): the contract waits for the operator, flagged NeedsOperator.
 */
async function contractWaitingForOperator(h: ClusterHarness): Promise<Stuck> {
  const client = agent(h);
  const worker = agent(h);
  await fund(h, client.address);
  await fund(h, worker.address);
  const { contractId: id } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(id);
  await worker.deliver(id, DELIVERY);
  const stake = (await h.ledger().holdsByContract(id)).find((x) => x.kind === 'stake' && x.status === 'open');
  assert.ok(stake, 'the Worker Stake is held');
  await h.ledger().voidHold({ id: `visibility-corruption:${id}`, holdId: stake.id });
  // The approval's answer waits for the settlement, which the ledger refuses: it stays unanswered until the
  // operator acts (its outcome is the contract's status, checked after the release).
  const approval = client.approve(id).then(
    () => undefined,
    () => undefined,
  );
  return { id, client, approval };
}

/** The operator's release (POST /operator/contracts/{id}/resolve): every hold back, cancelled-by-operator. */
async function releaseByOperator(h: ClusterHarness, { id, client, approval }: Stuck): Promise<void> {
  const answer = await fetch(new URL(`/operator/contracts/${id}/resolve`, h.url()), {
    method: 'POST',
    headers: { Authorization: `Bearer ${h.settings.operatorToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'release' }),
  });
  assert.equal(answer.status, 200, await answer.text());
  await eventually(
    () => client.getContract(id),
    (v) => v.status === 'cancelled-by-operator',
  );
  assert.ok((await h.ledger().holdsByContract(id)).every((x) => x.status === 'resolved'));
  await approval;
}
