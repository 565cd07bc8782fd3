// Webhooks at load: AGENTS agents (default 1,000) each subscribe a webhook to one local receiver while
// CONTRACTS FDP happy paths (default 200) run, CONCURRENCY at a time, between agents of that pool. Prints
// the delivery latency (from the event's time to its arrival at the receiver) p50 / p95 / max, the
// deliveries, duplicates, and the entries lost (in an agent's feed, never received). On the dev server
// with the API and the worker in this process. Run: npx tsx bench/agents/webhooks.ts
// (AGENTS=… CONTRACTS=… CONCURRENCY=… to change the load).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentApiError, type AgentClient } from '../../sdk/typescript';
import { agent, DELIVERY, fixedTerms, fund } from '../../test/e2e/support';
import { startDevServiceHarness } from '../../test/support/service';
import { load } from '../stats';

const AGENTS = Number(process.env.AGENTS ?? 1000);
const CONTRACTS = Number(process.env.CONTRACTS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);

function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

async function pool<T>(items: readonly T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

/**
 * A keyed call answered 503 ("retry") under saturation is retried: its Idempotency-Key makes that safe.
 * So is a read the agent's rate limit refused (429), after the wait it names.
 */
async function retried<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof AgentApiError && (err.status === 503 || err.status === 429))) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

const progress = (what: string) => console.error(`[bench ${new Date().toISOString()}] ${what}`);

async function main(): Promise<void> {
  // Every agent's receiver is on one host here; the per-host rate (10 posts a second by default)
  // would measure the limit, not the delivery path.
  process.env.OPENCONTRACT_WEBHOOK_HOST_RATE ??= '100000/100000';
  const h = await startDevServiceHarness();
  const latencies = new Map<string, number>();
  let deliveries = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries += 1;
      const id = String(req.headers['webhook-id']);
      const { data } = JSON.parse(Buffer.concat(chunks).toString()) as { data: { at: string } };
      if (!latencies.has(id)) latencies.set(id, Date.now() - Date.parse(data.at));
      res.writeHead(204).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const started = Date.now();
    const agents: AgentClient[] = Array.from({ length: AGENTS }, () => agent(h));
    await pool(agents, 20, async (a) => {
      await fund(h, a.address);
      // A URL is one agent's (docs/agents.md "No amplifier"): each agent its own path on the receiver.
      await a.addWebhook(`${url}/${a.address}`);
    });
    const subscribedMs = Date.now() - started;
    progress(`${AGENTS} agents subscribed in ${subscribedMs} ms`);
    let done = 0;
    const contractsAt = Date.now();
    const pairs = Array.from({ length: CONTRACTS }, (_, i) => [
      agents[(2 * i) % AGENTS]!,
      agents[(2 * i + 1) % AGENTS]!,
    ]);
    await pool(pairs, CONCURRENCY, async ([client, worker]) => {
      const terms = fixedTerms(worker!.address);
      const key = (step: string) => ({ idempotencyKey: `${step}-${client!.address}-${worker!.address}` });
      const { contractId } = await retried(() => client!.createContract(terms, key('create')));
      await retried(() => worker!.accept(contractId, key('accept')));
      await retried(() => worker!.deliver(contractId, DELIVERY, key('deliver')));
      await retried(() => client!.approve(contractId, key('approve')));
      if (++done % 10 === 0) progress(`${done} contracts settled`);
    });
    const contractsMs = Date.now() - contractsAt;
    // Every entry of every agent's feed must arrive; wait for the settlements to be projected first.
    const expected = new Set<string>();
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      expected.clear();
      let settled = 0;
      await pool(agents, 20, async (a) => {
        for (let after = '0'; ;) {
          const page = await retried(() => a.myFeed({ after, limit: 500 }));
          for (const e of page.entries) {
            expected.add(e.id);
            if (e.event?.type === 'contract.settled') settled += 1;
          }
          if (page.entries.length < 500) break;
          after = page.next;
        }
      });
      const missing = [...expected].filter((id) => !latencies.has(id)).length;
      if ((settled >= 2 * CONTRACTS && missing === 0) || Date.now() > deadline) {
        const xs = [...expected].flatMap((id) => (latencies.has(id) ? [latencies.get(id)!] : []));
        console.log(
          JSON.stringify({
            agents: AGENTS,
            contracts: CONTRACTS,
            concurrency: CONCURRENCY,
            subscribeSeconds: subscribedMs / 1000,
            contractsSeconds: contractsMs / 1000,
            feedEntries: expected.size,
            delivered: xs.length,
            lost: missing,
            postsReceived: deliveries,
            duplicates: deliveries - latencies.size,
            latencyMs: { p50: percentile(xs, 50), p95: percentile(xs, 95), max: percentile(xs, 100) },
            load: load(),
          }),
        );
        return;
      }
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    await h.close();
  }
}

void main();
