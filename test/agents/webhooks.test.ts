// Webhooks and the feed stream end to end (API over HTTP, worker, dev server): a receiver that fails
// its first deliveries and is then down for a while gets every feed entry, exactly once after
// deduplication by webhook-id, in order, each signature verified with the standardwebhooks library;
// the API and worker stopped while a delivery is in flight lose nothing; the worker process SIGKILLed
// while a delivery is in flight loses nothing either. On PostgreSQL, two API processes project the same
// contracts into one feed: each entry once, in order, delivered once. The feed stream resumed with
// Last-Event-ID gives exactly the entries missed.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createAgentClient, createOperatorClient, randomPrivateKey } from '../../sdk/typescript';
import type { AgentClient, FeedEntry } from '../../sdk/typescript';
import { startApiServer } from '../../service/api-server';
import { serviceProcess } from '../../service/cluster';
import { loadSettings } from '../../service/settings';
import { agent, DELIVERY, fixedTerms, fund, reconnect } from '../e2e/support';
import { FUNDS } from '../support/fixtures';
import { openLedger } from '../../store/ledger';
import { startPostgres } from '../support/postgres';
import { makeDir, runContractWorker, testSettingsEnv, useServiceHarness } from '../support/service';
import { until } from './support';

const h = useServiceHarness();

interface Received {
  id: string;
  entry: FeedEntry;
}

/** A local receiver: answers `failFirst` requests with 500, then verifies, deduplicates and records. */
class Receiver {
  readonly received: Received[] = [];
  readonly attempts: string[] = [];
  secret = '';
  failFirst = 0;
  /** While set, each request waits for it before being answered. */
  hold: Promise<void> | undefined;
  private server: Server | undefined;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const id = String(req.headers['webhook-id']);
    this.attempts.push(id);
    if (this.failFirst > 0) {
      this.failFirst -= 1;
      res.writeHead(500).end();
      return;
    }
    if (this.hold) await this.hold;
    // Throws on a bad signature: the test fails on the 500 it leaves unanswered in `received`.
    const payload = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as {
      data: FeedEntry;
    };
    if (!this.received.some((r) => r.id === id)) this.received.push({ id, entry: payload.data });
    res.writeHead(204).end();
  }
}

async function wholeFeed(a: AgentClient): Promise<FeedEntry[]> {
  const all: FeedEntry[] = [];
  for (let after = '0'; ;) {
    const page = await a.myFeed({ after });
    all.push(...page.entries);
    if (page.entries.length === 0) return all;
    after = page.next;
  }
}

/** A direct award to `worker`, accepted, delivered and approved: the Worker's feed gets every step. */
async function fixedContract(client: AgentClient, worker: AgentClient): Promise<string> {
  const created = await client.createContract(fixedTerms(worker.address));
  await worker.accept(created.contractId);
  await worker.deliver(created.contractId, DELIVERY);
  await client.approve(created.contractId);
  return created.contractId;
}

describe('webhooks', () => {
  test('failures, an outage and a restart mid-delivery: every entry once, in order, signatures verified', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const client = agent(h());
    let worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const sub = await worker.addWebhook(receiver.url());
    receiver.secret = sub.secret;
    receiver.failFirst = 3;

    await fixedContract(client, worker);
    // The first failures are visible to the agent on its subscription.
    await until(async () => {
      const [state] = await worker.listWebhooks();
      assert.ok(state!.failures > 0 || state!.lastError !== null, JSON.stringify(state));
    });

    // Down for a while: the port closes, a second contract happens, then it comes back.
    await until(async () => assert.ok(receiver.received.length > 0));
    const port = receiver.port;
    await receiver.stop();
    await fixedContract(client, worker);
    await new Promise((r) => setTimeout(r, 3000));
    await receiver.start(port);

    // A delivery held in flight while the API and the worker stop; both start again.
    let release!: () => void;
    receiver.hold = new Promise<void>((resolve) => (release = resolve));
    await fixedContract(client, worker);
    await until(async () => assert.ok(receiver.attempts.length > receiver.received.length));
    const stopping = h().stopApiAndWorker();
    await new Promise((r) => setTimeout(r, 500));
    release();
    receiver.hold = undefined;
    await stopping;
    await h().startApiAndWorker();
    worker = reconnect(h(), worker);

    const feed = await wholeFeed(worker);
    await until(async () => {
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        feed.map((e) => e.id),
      );
    }, 90_000);
    assert.deepEqual(
      receiver.received.map((r) => r.entry),
      feed,
    );
    const [state] = await worker.listWebhooks();
    assert.equal(state!.deliveredThrough, feed[feed.length - 1]!.id);
    assert.equal(state!.abandoned, 0);
    await receiver.stop();
  });
});

interface Party {
  a: AgentClient;
  receiver: Receiver;
}

/** A funded Client and contractor, each on the API at its URL, each with a webhook to a receiver of its own. */
async function subscribedParties(
  operatorToken: string,
  urls: readonly [client: string, contractor: string],
  clientKey = randomPrivateKey(),
): Promise<[client: Party, contractor: Party]> {
  const operator = createOperatorClient({ baseUrl: urls[0], token: operatorToken });
  const [client, contractor] = urls.map((baseUrl, i) => ({
    a: createAgentClient({ baseUrl, privateKey: i === 0 ? clientKey : randomPrivateKey() }),
    receiver: new Receiver(),
  })) as [Party, Party];
  for (const { a, receiver } of [client, contractor]) {
    await operator.deposit({ address: a.address, amount: FUNDS.toString() });
    await receiver.start();
    receiver.secret = (await a.addWebhook(receiver.url())).secret;
  }
  return [client, contractor];
}

/**
 * What a receiver must end with once `settled` contracts of the agent settled: every entry of its feed,
 * once each after deduplication, in the feed's order (each verified on arrival).
 */
async function receivedTheWholeFeed(
  receiver: Receiver,
  a: AgentClient,
  settled: number,
  timeoutMs: number,
): Promise<void> {
  const feed = await until(async () => {
    const all = await wholeFeed(a);
    assert.equal(all.filter((e) => e.event?.type === 'contract.settled').length, settled);
    return all;
  }, timeoutMs);
  await until(async () => {
    assert.deepEqual(
      receiver.received.map((r) => r.id),
      feed.map((e) => e.id),
    );
  }, timeoutMs);
  assert.deepEqual(
    receiver.received.map((r) => r.entry),
    feed,
  );
}

describe('webhooks, the worker process SIGKILLed', () => {
  // Its own API (in this process) and worker (a child process, `service/start.ts worker` as deployed) on a
  // task queue and data dir of their own, on the suite's dev server: the child runs the delivery activity.
  const QUEUE = 'opencontract-webhook-sigkill';

  test('killed while a post is held open: restarted, every entry once, in order per agent, verified', async () => {
    const { dir, remove } = makeDir('webhook-sigkill');
    const settingsEnv = { ...testSettingsEnv(h().env, dir), OPENCONTRACT_TASK_QUEUE: QUEUE };
    const settings = loadSettings(settingsEnv);
    const worker = serviceProcess('worker', 'worker', { ...process.env, ...settingsEnv, LOG_LEVEL: 'WARN' });
    await worker.start();
    const api = await startApiServer(settings, { env: settingsEnv, taskQueue: QUEUE });
    let parties: Party[] = [];
    try {
      parties = await subscribedParties(settings.operatorToken, [api.url, api.url]);
      const [{ a: client }, { a: contractor, receiver: contractorReceiver }] = parties as [Party, Party];

      // The contractor's receiver holds its first post open (the post's own timeout is 10 s); the
      // kill lands while it is in flight.
      let release!: () => void;
      contractorReceiver.hold = new Promise<void>((resolve) => (release = resolve));
      const { contractId } = await client.createContract(fixedTerms(contractor.address));
      await until(async () => assert.equal(contractorReceiver.attempts.length, 1));
      const held = contractorReceiver.attempts[0]!;
      await worker.kill('SIGKILL');
      // The receiver takes the post after all (it was sent), but its answer reaches no one.
      release();
      contractorReceiver.hold = undefined;
      await until(async () => assert.equal(contractorReceiver.received.length, 1));

      await worker.start();
      await contractor.accept(contractId);
      await contractor.deliver(contractId, DELIVERY);
      await client.approve(contractId);
      for (const { a, receiver } of parties) await receivedTheWholeFeed(receiver, a, 1, 90_000);
      // The held entry was posted again after the kill (the worker never heard the answer): the
      // receiver's deduplication by webhook-id is what keeps it once.
      assert.ok(
        contractorReceiver.attempts.filter((id) => id === held).length >= 2,
        contractorReceiver.attempts.join(),
      );
      for (const { a } of parties) {
        const [state] = await a.listWebhooks();
        assert.equal(state!.abandoned, 0);
      }
    } finally {
      for (const { receiver } of parties) await receiver.stop();
      await api.close();
      await worker.kill('SIGTERM');
      remove();
    }
  });
});

describe('the feed and webhooks on PostgreSQL', () => {
  // Two API servers (each with its projector) and a worker on one PostgreSQL database, on the suite's dev
  // server under a task queue of their own: the projectors race over every contract.
  const QUEUE = 'opencontract-webhook-postgres';

  test('two projectors, one feed: every event once per agent, in order, each delivered once, verified', async () => {
    const postgres = await startPostgres();
    const { dir, remove } = makeDir('webhook-postgres');
    const settingsEnv = {
      ...testSettingsEnv(h().env, dir),
      OPENCONTRACT_LEDGER: await postgres.createDatabase('feed'),
    };
    const settings = loadSettings(settingsEnv);
    assert.equal(settings.ledger.kind, 'postgres');
    const ledger = await openLedger(settings.ledger);
    const worker = await runContractWorker(h().env, ledger, settings, QUEUE);
    const apis = [
      await startApiServer(settings, { env: settingsEnv, taskQueue: QUEUE }),
      await startApiServer(settings, { env: settingsEnv, taskQueue: QUEUE }),
    ] as const;
    let parties: Party[] = [];
    try {
      // The Client speaks to one API, the contractor to the other: both touch every contract.
      const clientKey = randomPrivateKey();
      parties = await subscribedParties(settings.operatorToken, [apis[0].url, apis[1].url], clientKey);
      const [{ a: client }, { a: contractor }] = parties as [Party, Party];
      const ids = [await fixedContract(client, contractor), await fixedContract(client, contractor)];
      for (const { a, receiver } of parties) await receivedTheWholeFeed(receiver, a, 2, 60_000);

      // Each party's feed holds each contract's log once, in the log's order, ids increasing.
      for (const { a } of parties) {
        const feed = await wholeFeed(a);
        const numbers = feed.map((e) => Number(e.id));
        assert.deepEqual(
          numbers,
          [...new Set(numbers)].sort((x, y) => x - y),
        );
        for (const id of ids) {
          const log = (await a.getEvents(id)).events.map((e) => `${e.type}@${e.at}`);
          const fed = feed
            .filter((e) => e.contractId === id && e.type === 'contract.event')
            .map((e) => `${String(e.event!.type)}@${String(e.event!.at)}`);
          assert.deepEqual(fed, log);
        }
      }
      // Read through either API, the feed is the same.
      const viaOther = createAgentClient({ baseUrl: apis[1].url, privateKey: clientKey });
      assert.deepEqual(await wholeFeed(viaOther), await wholeFeed(client));
    } finally {
      for (const { receiver } of parties) await receiver.stop();
      for (const api of apis) await api.close();
      await worker.stop();
      await ledger.close();
      await postgres.stop();
      remove();
    }
  });
});

describe('the feed stream', () => {
  test('reconnecting with Last-Event-ID gives exactly the entries missed', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    await fixedContract(client, worker);
    const before = await until(async () => {
      const all = await wholeFeed(worker);
      assert.ok(all.some((e) => e.event?.type === 'contract.settled'));
      return all;
    });

    const seen: FeedEntry[] = [];
    const first = new AbortController();
    const stream = worker.streamFeed({ signal: first.signal });
    for await (const entry of stream) {
      seen.push(entry);
      if (seen.length === before.length) break;
    }
    first.abort();
    assert.deepEqual(seen, before);

    // Disconnected: more happens.
    await fixedContract(client, worker);
    const after = await until(async () => {
      const all = await wholeFeed(worker);
      assert.equal(all.filter((e) => e.event?.type === 'contract.settled').length, 2);
      return all;
    });
    const missed = after.slice(before.length);
    const resumed: FeedEntry[] = [];
    const second = new AbortController();
    const timer = setTimeout(() => second.abort(), 3000);
    try {
      for await (const entry of worker.streamFeed({
        lastEventId: seen[seen.length - 1]!.id,
        signal: second.signal,
      }))
        resumed.push(entry);
    } catch (err) {
      if (!second.signal.aborted) throw err;
    }
    clearTimeout(timer);
    assert.deepEqual(resumed, missed);
  });
});
