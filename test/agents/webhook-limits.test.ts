// What no agent can make the webhook deliveries do (docs/agents.md "Webhooks"): connect to a private
// target (also a name that resolves to one only at delivery time), post one event to one URL more than
// once however many subscriptions name it, exceed a target host's delivery rate (across stores on one
// PostgreSQL too), or read anything about the target's network from an error report. The delivery
// activities on a real feed store, a real local listener counting connections, and the API.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { openFeed, type FeedStore } from '../../store/agent-feed';
import { createWebhookActivities, rateKey } from '../../activities/webhook-activities';
import { isNonPublicAddress, type Resolve } from '../../webhooks/target';
import { useAppHarness } from '../support/service';
import { call } from '../api/support';
import { newAgent } from '../support/fixtures';
import { startPostgres, type PostgresServer } from '../support/postgres';

const h = useAppHarness();

let dir = '';
let store: FeedStore;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oc-webhook-limits-'));
  store = await openFeed({ dataDir: dir, ledger: { kind: 'sqlite' } });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A TCP listener on loopback that counts the connections it gets (and answers none). */
async function connectionCounter(): Promise<{ port: number; count: () => number; close: () => void }> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => connections,
    close: () => server.close(),
  };
}

/** An HTTP receiver on loopback: records each post's webhook-id, answers `status`. */
async function receiver(status = 204): Promise<{ url: string; posts: string[]; server: Server }> {
  const posts: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    posts.push(String(req.headers['webhook-id']));
    req.resume();
    res.writeHead(status, { 'content-type': 'text/plain' }).end('db-7.internal.corp refused: secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, posts, server };
}

let contracts = 0;
/** One feed entry for `agent`; its id. */
async function oneEntry(agent: string): Promise<number> {
  const contractId = `c-wl-${++contracts}`;
  await store.commit({
    contractId,
    expected: 0,
    projected: 1,
    closed: false,
    dueAt: null,
    entries: [
      {
        agent,
        contractId,
        type: 'contract.event',
        at: new Date().toISOString(),
        event: { type: 'contract.created' },
        dedup: `e:${contractId}:0:${agent}`,
      },
    ],
    roles: [{ agent, role: 'client', since: 1 }],
  });
  const entries = await store.read(agent, 0, 1_000);
  return Number(entries.at(-1)!.id);
}

let subs = 0;
async function subscribe(agent: string, url: string): Promise<string> {
  const id = `wh_wl_${++subs}`;
  await store.addSubscription({
    id,
    agent,
    url,
    secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
    createdAt: new Date().toISOString(),
  });
  return id;
}

const activities = (over: Partial<Parameters<typeof createWebhookActivities>[0]> = {}) =>
  createWebhookActivities({ feed: store, allowPrivate: false, heartbeat: () => undefined, ...over });

async function failure(work: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof ApplicationFailure, String(err));
    return err;
  }
  assert.fail('the delivery succeeded');
}

describe('private targets', () => {
  test('no connection reaches a loopback listener by default: at registration, nor through a name rebound at delivery', async () => {
    const listener = await connectionCounter();
    try {
      const agent = newAgent();
      for (const url of [
        `https://127.0.0.1:${listener.port}/hook`,
        `http://127.0.0.1:${listener.port}/hook`,
        `https://[::ffff:7f00:1]:${listener.port}/hook`,
        `https://localhost:${listener.port}/hook`,
      ]) {
        const res = await call(h().app, agent, 'POST', `/agents/${agent.address}/webhooks`, {
          body: { url },
        });
        assert.equal(res.status, 400, `${url}: ${res.text}`);
        assert.equal(res.json.error.code, 'webhook_target_refused');
      }
      // A name that was public at registration and resolves to loopback when the post is made.
      const rebound: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
      const sub = await subscribe(agent.address, `https://hooks.example.com:${listener.port}/hook`);
      const entry = await oneEntry(agent.address);
      const refused = await failure(activities({ resolve: rebound }).deliverWebhook(sub, entry));
      assert.equal(refused.message, 'private_target');
      assert.equal((await store.subscription(sub))!.lastError, 'private_target');
      assert.equal(listener.count(), 0);
    } finally {
      listener.close();
    }
  });

  test('every non-public form is refused: metadata, link-local, shared, unique-local, mapped, translated', () => {
    for (const a of [
      '169.254.169.254',
      '100.100.100.200',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '0.0.0.0',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:0:a00:1',
      '::7f00:1',
      'fe80::1',
      'fd00:ec2::254',
      '64:ff9b::a00:1',
    ])
      assert.equal(isNonPublicAddress(a), true, a);
    for (const a of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])
      assert.equal(isNonPublicAddress(a), false, a);
  });
});

describe('error reports', () => {
  test('lastError is a word of the fixed vocabulary, never the receiver’s answer or an address', async () => {
    const failing = await receiver(500);
    const closed = await connectionCounter();
    closed.close();
    try {
      const agent = newAgent().address;
      const deliver = activities({ allowPrivate: true });
      const entry = await oneEntry(agent);
      const cases: [string, string][] = [
        [failing.url, 'http_500'],
        [`http://127.0.0.1:${closed.port}/hook`, 'refused'],
      ];
      for (const [url, code] of cases) {
        const sub = await subscribe(agent, url);
        const err = await failure(deliver.deliverWebhook(sub, entry));
        assert.equal(err.message, code);
        assert.equal((await store.subscription(sub))!.lastError, code);
      }
    } finally {
      failing.server.close();
    }
  });
});

describe('amplification', () => {
  test('ten subscriptions of one agent to one URL: one post per event', async () => {
    const target = await receiver();
    try {
      const agent = newAgent().address;
      const ids = [];
      for (let i = 0; i < 10; i++)
        ids.push(await subscribe(agent, i % 2 ? target.url : target.url.replace('http://', 'HTTP://')));
      const deliver = activities({ allowPrivate: true });
      for (let e = 0; e < 3; e++) {
        const entry = await oneEntry(agent);
        for (const sub of ids) assert.equal(await deliver.deliverWebhook(sub, entry), 'delivered');
      }
      assert.equal(target.posts.length, 3, JSON.stringify(target.posts));
      assert.equal(new Set(target.posts).size, 3);
      // Every subscription's cursor moved: none posts the event later.
      for (const sub of ids) assert.ok((await store.subscription(sub))!.deliveredThrough > 0);
    } finally {
      target.server.close();
    }
  });

  test('another agent cannot subscribe to a URL an agent holds (409), so no agent claims another’s deliveries', async () => {
    const [owner, other] = [newAgent(), newAgent()];
    const url = 'https://93.184.215.14/shared-hook';
    const first = await call(h().app, owner, 'POST', `/agents/${owner.address}/webhooks`, { body: { url } });
    assert.equal(first.status, 201, first.text);
    const again = await call(h().app, owner, 'POST', `/agents/${owner.address}/webhooks`, { body: { url } });
    assert.equal(again.status, 201, again.text);
    for (const spelling of [url, 'HTTPS://93.184.215.14:443/shared-hook']) {
      const taken = await call(h().app, other, 'POST', `/agents/${other.address}/webhooks`, {
        body: { url: spelling },
      });
      assert.equal(taken.status, 409, taken.text);
      assert.equal(taken.json.error.code, 'webhook_url_taken');
    }
    const own = await call(h().app, other, 'POST', `/agents/${other.address}/webhooks`, {
      body: { url: `${url}?agent=other` },
    });
    assert.equal(own.status, 201, own.text);
  });

  test('a target host’s rate holds across every subscription: past its burst the posts wait, with no error recorded', async () => {
    const target = await receiver();
    try {
      const agent = newAgent().address;
      // Two names for one address: the rate is the address's, whatever name led there.
      const resolve: Resolve = async () => [{ address: '127.0.0.1', family: 4 }];
      const deliver = activities({ allowPrivate: true, resolve, hostRate: { burst: 3, perSecond: 0.001 } });
      const port = new URL(target.url).port;
      const entry = await oneEntry(agent);
      const outcomes = [];
      for (let i = 0; i < 5; i++) {
        const sub = await subscribe(agent, `http://${i % 2 ? 'one' : 'two'}.hooks.test:${port}/hook?n=${i}`);
        try {
          outcomes.push(await deliver.deliverWebhook(sub, entry));
        } catch (err) {
          assert.ok(err instanceof ApplicationFailure);
          assert.equal(err.type, 'WebhookHostBusy');
          assert.ok((err.nextRetryDelay as number) > 0);
          assert.equal((await store.subscription(sub))!.lastError, null);
          outcomes.push('busy');
        }
      }
      assert.deepEqual(outcomes, ['delivered', 'delivered', 'delivered', 'busy', 'busy']);
      assert.equal(target.posts.length, 3);
      // An IPv6 host is one by its /64.
      assert.equal(rateKey('2001:db8:1:2:3:4:5:6'), rateKey('2001:db8:1:2::9'));
      assert.notEqual(rateKey('2001:db8:1:2::9'), rateKey('2001:db8:1:3::9'));
    } finally {
      target.server.close();
    }
  });
});

describe('the host rate on PostgreSQL', () => {
  let server: PostgresServer | undefined;
  before(async () => {
    server = await startPostgres();
  });
  after(async () => {
    await server?.stop();
  });

  test('two stores on one database spend one bucket per host', async () => {
    const ledger = {
      kind: 'postgres' as const,
      connectionString: await server!.createDatabase('hostrate'),
      schema: 'oc',
    };
    const [a, b] = [await openFeed({ dataDir: dir, ledger }), await openFeed({ dataDir: dir, ledger })];
    try {
      const rule = { burst: 4, perSecond: 0.001 };
      const now = Date.now();
      const taken = [];
      for (let i = 0; i < 6; i++)
        taken.push((await (i % 2 ? a : b).takeHostToken('hooks.example.com', rule, now)).ok);
      assert.deepEqual(taken, [true, true, true, true, false, false]);
      assert.equal((await a.takeHostToken('other.example.com', rule, now)).ok, true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
