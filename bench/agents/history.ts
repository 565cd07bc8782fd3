// History events of the FDP happy path (create, accept, deliver, approve, settle) on the dev server, with
// the agent feed running: its projector reads each contract while it is hot, the named Worker's feed
// is read, a webhook of the Worker receives every entry. The feed writes no history event (it reads the
// contract read model); this counts the contract workflow's events to show it. Run: npx tsx bench/agents/history.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { contractWorkflowId } from '../../workflows/definitions';
import { agent, DELIVERY, fixedTerms, fund } from '../../test/e2e/support';
import { startDevServiceHarness } from '../../test/support/service';

const RUNS = 3;

async function main(): Promise<void> {
  const h = await startDevServiceHarness();
  const received = new Set<string>();
  const receiver = createServer((req, res) => {
    received.add(String(req.headers['webhook-id']));
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const counts: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const client = agent(h);
      const worker = agent(h);
      await fund(h, client.address);
      await fund(h, worker.address);
      await worker.addWebhook(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
      const { contractId } = await client.createContract(fixedTerms(worker.address));
      await worker.accept(contractId);
      await worker.deliver(contractId, DELIVERY);
      await client.approve(contractId);
      const handle = h.env.client.workflow.getHandle(contractWorkflowId(contractId));
      while ((await handle.describe()).status.name !== 'COMPLETED')
        await new Promise((r) => setTimeout(r, 200));
      // Let the projector and the webhook catch up before counting: they must add nothing.
      for (let i = 0; i < 50; i++) {
        const { entries } = await worker.myFeed();
        if (
          entries.some((e) => e.event?.type === 'contract.settled') &&
          entries.every((e) => received.has(e.id))
        )
          break;
        await new Promise((r) => setTimeout(r, 200));
      }
      counts.push((await handle.describe()).historyLength);
    }
    console.log(JSON.stringify({ path: 'FDP happy path', runs: RUNS, historyEvents: counts }));
  } finally {
    receiver.close();
    await h.close();
  }
}

void main();
