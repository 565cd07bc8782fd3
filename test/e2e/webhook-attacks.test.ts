// Webhook attacks through the HTTP service (docs/agents.md "Webhooks", docs/security.md): on default
// settings no connection reaches a private target — a registration naming one is refused 400
// `webhook_target_refused`, and a subscription stored while a deployment allowed them gets no
// connection once it runs without the variable, its error a word of the vocabulary. With private
// targets allowed (this file's service sets OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE=1 for its loopback
// receiver), 50 subscriptions from five keys naming one URL deliver one post per event. Dev server, the
// API over HTTP, the worker's delivery workflows and a local listener counting what it gets.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createAgentClient,
  createOperatorClient,
  randomPrivateKey,
  type AgentClient,
} from '../../sdk/typescript';
import { openLedger } from '../../store/ledger';
import { startApiServer, type ApiServer } from '../../service/api-server';
import { loadSettings } from '../../service/settings';
import {
  makeDir,
  runContractWorker,
  testSettingsEnv,
  useServiceHarness,
  type RunningWorker,
} from '../support/service';
import { agent, DELIVERY, expectApiError, fixedTerms, fund } from './support';
import { eventually } from '../support/eventually';
import { FUNDS } from '../support/fixtures';

const h = useServiceHarness();

/** A TCP listener on loopback that counts the connections it gets (and answers none). */
async function connectionCounter() {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An HTTP receiver on loopback recording each post's webhook-id. */
async function receiver(): Promise<{ port: number; posts: string[]; server: Server }> {
  const posts: string[] = [];
  const server = createServer((req, res) => {
    posts.push(String(req.headers['webhook-id']));
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, posts, server };
}

/** Every entry id of the agent's feed. */
async function feedIds(a: AgentClient): Promise<string[]> {
  const ids: string[] = [];
  for (let after = '0'; ;) {
    const page = await a.myFeed({ after });
    if (page.entries.length === 0) return ids;
    ids.push(...page.entries.map((e) => e.id));
    after = page.next;
  }
}

/** A direct contract between `client` and `worker`, accepted, delivered and approved. */
async function settledContract(client: AgentClient, worker: AgentClient): Promise<string> {
  const { contractId } = await client.createContract(fixedTerms(worker.address));
  await worker.accept(contractId);
  await worker.deliver(contractId, DELIVERY);
  await client.approve(contractId);
  return contractId;
}

describe('webhook targets on default settings', () => {
  const QUEUE = 'opencontract-webhook-default';

  /** An API and a worker of their own on the suite's dev server, on `dir`, allowing private targets or not. */
  async function stack(dir: string, allowPrivate: boolean) {
    const env = { ...testSettingsEnv(h().env, dir) };
    if (!allowPrivate) delete env.OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE;
    const settings = loadSettings(env);
    assert.equal(settings.webhookAllowPrivate, allowPrivate);
    const ledger = await openLedger(settings.ledger);
    const worker: RunningWorker = await runContractWorker(h().env, ledger, settings, QUEUE);
    const api: ApiServer = await startApiServer(settings, { env, taskQueue: QUEUE, log: () => {} });
    return {
      url: api.url,
      operatorToken: settings.operatorToken,
      async close() {
        await api.close();
        await worker.stop();
        await ledger.close();
      },
    };
  }

  test('no connection reaches a loopback listener: refused at registration; a subscription stored while allowed gets none', async () => {
    const listener = await connectionCounter();
    const { dir, remove } = makeDir('webhook-default');
    const clientKey = randomPrivateKey();
    const workerKey = randomPrivateKey();
    const target = `https://127.0.0.1:${listener.port}/hook`;
    let running: Awaited<ReturnType<typeof stack>> | undefined;
    try {
      // A deployment that allowed private targets took the subscription, then restarted without the variable.
      running = await stack(dir, true);
      const before = createAgentClient({ baseUrl: running.url, privateKey: clientKey });
      await before.addWebhook(target);
      await running.close();
      running = await stack(dir, false);
      const at = (key: string) => createAgentClient({ baseUrl: running!.url, privateKey: key });
      const [client, worker] = [at(clientKey), at(workerKey)];
      const operator = createOperatorClient({ baseUrl: running.url, token: running.operatorToken });
      for (const a of [client, worker])
        await operator.deposit({ address: a.address, amount: FUNDS.toString() });

      for (const url of [
        target,
        `http://127.0.0.1:${listener.port}/hook`,
        `https://localhost:${listener.port}/hook`,
        `https://[::ffff:7f00:1]:${listener.port}/hook`,
        'https://169.254.169.254/latest/meta-data',
      ]) {
        const refused = await expectApiError(worker.addWebhook(url), 400, 'webhook_target_refused');
        assert.deepEqual(
          (refused.details as { fields: { field: string }[] }).fields.map((f) => f.field),
          ['url'],
        );
      }
      assert.deepEqual(await worker.listWebhooks(), []);

      // The Client's feed grows; its stored subscription is woken and refused at the connection.
      await settledContract(client, worker);
      const [sub] = await eventually(
        () => client.listWebhooks(),
        (subs) => subs[0]?.lastError === 'private_target',
        30_000,
      );
      assert.equal(sub!.lastError, 'private_target');
      assert.ok(sub!.failures >= 1);
      assert.equal(listener.count(), 0);
    } finally {
      await running?.close();
      await listener.close();
      remove();
    }
  });
});

describe('webhook amplification', () => {
  test('50 subscriptions from five keys naming one URL: one post per event', async () => {
    const target = await receiver();
    try {
      const keys = Array.from({ length: 5 }, () => agent(h()));
      for (const k of keys) await fund(h(), k.address);
      const [owner, others] = [keys[0]!, keys.slice(1)];
      const url = `http://127.0.0.1:${target.port}/hook`;
      // One URL in two spellings the normalization makes one (the scheme's case).
      const spellings = [url, url.replace('http://', 'HTTP://')];
      const answers: string[] = [];
      for (const k of keys)
        for (let i = 0; i < 10; i++) {
          try {
            await k.addWebhook(spellings[i % spellings.length]!);
            answers.push(k === owner ? 'owner 201' : 'other 201');
          } catch (err) {
            const e = err as { status: number; code: string };
            answers.push(`${k === owner ? 'owner' : 'other'} ${e.status} ${e.code}`);
          }
        }
      const counts = answers.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[a] ?? 0) + 1 }), {});
      assert.deepEqual(counts, { 'owner 201': 10, 'other 409 webhook_url_taken': 40 });
      assert.equal((await owner.listWebhooks()).length, 10);

      // Two contracts of the owner with two of the other keys: each event enters the owner's feed once.
      for (const other of others.slice(0, 2)) await settledContract(owner, other);
      // Until every subscription has delivered through the feed's last entry, read afresh each time: a
      // contract's last events may still be entering the feed after the settlement answered.
      const { entries } = await eventually(
        async () => ({ subs: await owner.listWebhooks(), entries: await feedIds(owner) }),
        ({ subs, entries }) =>
          entries.length >= 5 && subs.every((s) => s.deliveredThrough === entries.at(-1)),
        60_000,
      );
      await sleep(2_000);
      assert.equal(
        target.posts.length,
        entries.length,
        `${target.posts.length} posts for ${entries.length} events`,
      );
      assert.deepEqual([...target.posts].sort(), [...entries].sort());
      console.log(
        `webhook amplification: 50 registrations (10 taken, 40 refused 409), ${entries.length} events, ` +
          `${target.posts.length} posts (${target.posts.length / entries.length} per event)`,
      );
    } finally {
      target.server.close();
    }
  });
});
