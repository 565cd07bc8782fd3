// GET /contracts lists closed contracts from their durable records: a settled contract whose
// workflow was deleted with `temporal workflow delete` is still listed, with its status; pages with a
// small limit run from the open contracts (visibility) into the closed ones (records), and a contract
// closing between two pages neither repeats nor pushes out a row. A cursor is checked like any input.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentClient, ContractPage } from '../../sdk/typescript';
import { useServiceHarness } from '../support/service';
import { deleteContractWorkflow } from './delete-workflow';
import { agent, DELIVERY, fixedTerms, fund } from '../e2e/support';
import { eventually, waitClosed } from '../support/eventually';

const h = useServiceHarness();

async function cancelled(client: AgentClient, worker: string): Promise<string> {
  const { contractId } = await client.createContract(fixedTerms(worker));
  await client.cancel(contractId);
  await waitClosed(h().env.client, contractId);
  return contractId;
}

test('closed contracts are listed from their records, after `temporal workflow delete` too, in stable pages', async () => {
  const client = agent(h());
  const worker = agent(h());
  await fund(h(), client.address, 50_000_000n);
  await fund(h(), worker.address);

  const { contractId: settled } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(settled);
  await worker.deliver(settled, DELIVERY);
  await client.approve(settled);
  await waitClosed(h().env.client, settled);
  const closed = [settled, await cancelled(client, worker.address), await cancelled(client, worker.address)];
  const openTerms = fixedTerms(worker.address);
  const { contractId: open } = await client.createContract(openTerms);

  await deleteContractWorkflow(h().env, settled);

  const [listed] = await client.listContracts({ status: 'settled-fully-met' });
  assert.equal(listed?.contractId, settled);
  assert.equal(listed.status, 'settled-fully-met');
  assert.equal(listed.contractCode, 'FDP');
  assert.equal(listed.nextDeadline, null);
  assert.ok(listed.closedAt !== null && Date.parse(listed.closedAt) >= Date.parse(listed.createdAt));
  assert.deepEqual(
    (await client.listContracts({ status: 'cancelled-by-client' })).map((c) => c.contractId).sort(),
    closed.slice(1).sort(),
  );
  // The open one is on visibility (eventually consistent): wait until it shows there.
  const openRows = await eventually(
    () => client.listContracts({ status: 'created', contractType: 'fixed' }),
    (rows) => rows.some((c) => c.contractId === open),
  );
  // Its row comes from the start's search attributes (the workflow did not upsert them again).
  const openRow = openRows.find((c) => c.contractId === open)!;
  assert.equal(openRow.contractCode, 'FDP');
  assert.equal(openRow.nextDeadline, new Date(openTerms.deadlines.match).toISOString());

  // One row a page: the open contract, then the closed ones newest closed first. A contract closes
  // once the pages have reached the closed ones: it is not mixed into the later pages (it sorts ahead
  // of the cursor), and no row repeats or goes missing.
  const pages: ContractPage[] = [await client.listContractsPage({ contractType: 'fixed', limit: 1 })];
  let late: string | undefined;
  while (pages[pages.length - 1]!.nextCursor !== null) {
    const cursor = pages[pages.length - 1]!.nextCursor!;
    pages.push(await client.listContractsPage({ contractType: 'fixed', limit: 1, cursor }));
    if (late === undefined && pages[pages.length - 1]!.contracts[0]?.closedAt) {
      late = await cancelled(client, worker.address);
    }
  }
  assert.ok(late !== undefined, 'the pages reached the closed contracts');
  const rows = pages.flatMap((p) => p.contracts);
  assert.ok(pages.every((p) => p.contracts.length <= 1));
  assert.equal(rows[0]?.contractId, open);
  assert.equal(rows[0]?.closedAt, null);
  const closedRows = rows.slice(1);
  assert.deepEqual(
    closedRows.map((c) => c.contractId),
    [...closed].reverse(),
    'every closed row once, newest closed first',
  );
  assert.ok(!rows.some((c) => c.contractId === late));
  const fresh = await client.listContractsPage({
    contractType: 'fixed',
    status: 'cancelled-by-client',
    limit: 1,
  });
  assert.equal(fresh.contracts[0]?.contractId, late, 'a fresh listing starts with it');

  // A cursor is input like any other: a forged one, or one made for other filters, is a 400 naming it.
  for (const cursor of ['not-a-cursor', pages[0]!.nextCursor!]) {
    const response = await fetch(`${h().url()}/contracts?status=settled-fully-met&cursor=${cursor}`);
    assert.equal(response.status, 400);
    const body = (await response.json()) as {
      error: { code: string; details: { fields: Array<{ field: string }> } };
    };
    assert.equal(body.error.code, 'invalid_input');
    assert.deepEqual(
      body.error.details.fields.map((f) => f.field),
      ['cursor'],
    );
  }
});
