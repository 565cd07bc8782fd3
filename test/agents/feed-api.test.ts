// An agent's contracts, feed and webhooks through app.request() on the real stack (dev server,
// worker, SQLite ledger, the feed projector running): a direct award reaches its named Worker without
// anything passed by hand; each step shows as the next action of whoever must act; strangers read
// nothing of another agent; a webhook target on loopback or a private network is refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useAppHarness } from '../support/service';
import { call, eligibleAgents, matchedContract, type Json } from '../api/support';
import { contractBody, DELIVERY_REF, FUNDS, newAgent, type TestAgent } from '../support/fixtures';
import { until } from './support';

const h = useAppHarness();

async function contractsOf(agent: TestAgent, query = ''): Promise<Json> {
  const res = await call(h().app, agent, 'GET', `/agents/${agent.address}/contracts${query}`);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

async function feedOf(agent: TestAgent, after = '0'): Promise<Json[]> {
  const res = await call(h().app, agent, 'GET', `/agents/${agent.address}/feed?after=${after}`);
  assert.equal(res.status, 200, res.text);
  return res.json.entries;
}

describe('a direct award, as each party finds it', () => {
  test('the named Worker finds it, each step is the next action of whoever must act, the feed tells it all', async () => {
    const client = newAgent();
    const worker = newAgent();
    await h().fund(client.address, FUNDS);
    await h().fund(worker.address, FUNDS);
    const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json.contractId;

    // The Worker learns of it from its own listing and feed, nothing else.
    const listed = await until(async () => {
      const page = await contractsOf(worker);
      assert.equal(page.contracts.length, 1);
      return page.contracts[0];
    });
    assert.deepEqual(
      {
        contractId: listed.contractId,
        role: listed.role,
        status: listed.status,
        nextAction: listed.nextAction,
      },
      { contractId: id, role: 'worker', status: 'created', nextAction: 'accept' },
    );
    assert.equal(listed.actionDeadline, created.json.deadlines.match);
    const named = (await feedOf(worker)).find((e: Json) => e.type === 'agent.named');
    assert.equal(named.contractId, id);
    assert.deepEqual(named.nextAction, { action: 'accept', deadline: created.json.deadlines.match });
    assert.equal((await contractsOf(client)).contracts[0].nextAction, null);

    assert.equal((await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
    await until(async () => assert.equal((await contractsOf(worker)).contracts[0].nextAction, 'deliver'));
    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: DELIVERY_REF,
    });
    assert.equal(delivered.status, 200, delivered.text);
    await until(async () => {
      const mine = (await contractsOf(client)).contracts[0];
      assert.equal(mine.nextAction, 'review');
      assert.equal(mine.actionDeadline, created.json.deadlines.review);
    });
    assert.equal((await contractsOf(worker)).contracts[0].nextAction, null);

    assert.equal((await call(h().app, client, 'POST', `/contracts/${id}/approve`, { body: {} })).status, 200);
    const types = await until(async () => {
      const entries = await feedOf(client);
      const seen = entries.map((e: Json) => e.event?.type);
      assert.ok(seen.includes('contract.settled'), JSON.stringify(seen));
      return entries;
    });
    // Every event of the log once, in the log's order, ids increasing.
    const log = (await call(h().app, client, 'GET', `/contracts/${id}/events`)).json.events as Json[];
    assert.deepEqual(
      types.filter((e: Json) => e.type === 'contract.event').map((e: Json) => e.event.type),
      log.map((e) => e.type),
    );
    const ids = types.map((e: Json) => Number(e.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    // Content-free: no key, no task text.
    const text = JSON.stringify(types);
    assert.ok(
      !text.includes(DELIVERY_REF.key) && !text.includes(contractBody(worker.address).taskDescription),
    );

    // Closed: listed from the record, with no action; `open=false` finds it, `open=true` does not.
    const closed = await until(async () => {
      const page = await contractsOf(worker, '?open=false');
      assert.equal(page.contracts.length, 1);
      return page.contracts[0];
    });
    assert.equal(closed.status, 'settled-fully-met');
    assert.equal(closed.nextAction, null);
    assert.equal((await contractsOf(worker, '?open=true')).contracts.length, 0);
    assert.equal((await contractsOf(worker, '?role=client')).contracts.length, 0);

    // The cursor resumes after the last entry seen: nothing repeated.
    const last = types[types.length - 1].id;
    assert.deepEqual(await feedOf(client, last), []);
  });

  test('paging: nextCursor walks every contract once, newest first', async () => {
    const client = newAgent();
    await h().fund(client.address, FUNDS * 3n);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(h().app, client, 'POST', '/contracts', {
        body: contractBody(newAgent().address),
      });
      assert.equal(res.status, 201, res.text);
      ids.push(res.json.contractId);
    }
    await until(async () => assert.equal((await contractsOf(client)).contracts.length, 3));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = await contractsOf(client, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.contracts.map((c: Json) => c.contractId));
      cursor = page.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(new Set(seen), new Set(ids));
    assert.equal(seen.length, 3);
    const bad = await call(h().app, client, 'GET', `/agents/${client.address}/contracts?cursor=nonsense`);
    assert.equal(bad.status, 400);
  });
});

describe('a seated Backup Agent', () => {
  test('is asked to vote until its own ballot is in, then not; the others are still asked, and learn nothing', async () => {
    const bas = await eligibleAgents(h(), 3);
    const { id, client, worker } = await matchedContract(h());
    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { ...DELIVERY_REF, content: { text: 'done' } },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const disputed = await call(h().app, client, 'POST', `/contracts/${id}/disputes`, { body: {} });
    assert.equal(disputed.status, 200, disputed.text);
    const endsAt: string = disputed.json.voting.endsAt;
    const rowOf = async (agent: TestAgent) => {
      const [row] = (await contractsOf(agent)).contracts.filter((c: Json) => c.contractId === id);
      return row && { role: row.role, status: row.status, next: row.nextAction, by: row.actionDeadline };
    };
    const asked = { role: 'backup-agent', status: 'disputed', next: 'vote', by: endsAt };
    for (const ba of bas) await until(async () => assert.deepEqual(await rowOf(ba), asked));

    const voted = await call(h().app, bas[0]!, 'POST', `/contracts/${id}/votes`, {
      body: { votes: ['met', 'not met'] },
    });
    assert.equal(voted.status, 200, voted.text);
    // Its own listing has nothing left to do; the other seats read exactly what they read before.
    assert.deepEqual(await rowOf(bas[0]!), { ...asked, next: null, by: null });
    for (const ba of bas.slice(1)) assert.deepEqual(await rowOf(ba), asked);
    for (const party of [client, worker]) assert.equal((await rowOf(party)).next, null);
    // Still sealed for everyone, the one who voted included.
    assert.equal((await call(h().app, bas[1], 'GET', `/contracts/${id}/votes`)).status, 409);
    assert.equal((await call(h().app, bas[0], 'GET', `/contracts/${id}/votes`)).status, 409);
  });
});

describe('another agent’s contracts, feed and webhooks', () => {
  test('a stranger gets 403 on each; unsigned gets 401', async () => {
    const owner = newAgent();
    const stranger = newAgent();
    for (const path of ['contracts', 'feed', 'feed/stream', 'webhooks']) {
      const res = await call(h().app, stranger, 'GET', `/agents/${owner.address}/${path}`);
      assert.equal(res.status, 403, `${path}: ${res.text}`);
      const unsigned = await call(h().app, undefined, 'GET', `/agents/${owner.address}/${path}`);
      assert.equal(unsigned.status, 401, path);
    }
    const post = await call(h().app, stranger, 'POST', `/agents/${owner.address}/webhooks`, {
      body: { url: 'https://example.com/hook' },
    });
    assert.equal(post.status, 403, post.text);
    const del = await call(h().app, stranger, 'DELETE', `/agents/${owner.address}/webhooks/wh_x`);
    assert.equal(del.status, 403, del.text);
  });
});

describe('webhook targets', () => {
  test('loopback, private, link-local, unique-local and plain http targets are refused; nothing is stored', async () => {
    const agent = newAgent();
    for (const url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'http://93.184.215.14/hook',
      'ftp://example.com/hook',
      'not a url',
    ]) {
      const res = await call(h().app, agent, 'POST', `/agents/${agent.address}/webhooks`, { body: { url } });
      assert.equal(res.status, 400, `${url}: ${res.text}`);
    }
    const listed = await call(h().app, agent, 'GET', `/agents/${agent.address}/webhooks`);
    assert.deepEqual(listed.json, { webhooks: [] });
  });

  test('a public https target is taken, listed without its secret, and deleted', async () => {
    const agent = newAgent();
    const res = await call(h().app, agent, 'POST', `/agents/${agent.address}/webhooks`, {
      body: { url: 'https://93.184.215.14/hook' },
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.json.secret, /^whsec_/);
    const listed = await call(h().app, agent, 'GET', `/agents/${agent.address}/webhooks`);
    assert.equal(listed.json.webhooks.length, 1);
    assert.equal(listed.json.webhooks[0].id, res.json.id);
    assert.equal(listed.json.webhooks[0].secret, undefined);
    const del = await call(h().app, agent, 'DELETE', `/agents/${agent.address}/webhooks/${res.json.id}`);
    assert.equal(del.status, 200, del.text);
    const again = await call(h().app, agent, 'DELETE', `/agents/${agent.address}/webhooks/${res.json.id}`);
    assert.equal(again.status, 404);
    assert.deepEqual((await call(h().app, agent, 'GET', `/agents/${agent.address}/webhooks`)).json, {
      webhooks: [],
    });
  });
});
