// Every message's answer through the API is the caller's view a GET reads right after it (docs/api.md
// "Messages"): the bounded messages answer the view in their Update's receipt, which the API
// completes from what it remembers of the contract; a quote and an award answer a receipt, and the
// API reads the view from the read model, which the workflow wrote before it answered. No answer and
// no read costs a workflow query. Also: an API process that remembers nothing of the contract (a
// restarted one), a keyed retry, and a terminal contract answered from its record. Real dev server,
// worker and ledger.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { acceptUpdate, type ContractView } from '../../workflows/definitions';
import { createContractGateway } from '../../api/contracts/gateway';
import { createTemporalClient } from '../../service/temporal-client';
import { appOn, makeDir, TASK_QUEUE, useAppHarness, type AppHarness } from '../support/service';
import { queryCountingClient } from '../support/query-counting-client';
import { openApiStores, closeApiStores } from '../../store';
import { call, eligibleAgents, type Json } from './support';
import { BUDGET, contractBody, DELIVERY_REF, FUNDS, newAgent, type TestAgent } from '../support/fixtures';
import type { App } from '../../api/app';

const h = useAppHarness();

/** Sends the message and asserts its answer is what the caller's GET reads right after; returns it. */
async function answersAsGet(
  app: App,
  agent: TestAgent,
  id: string,
  path: string,
  body: unknown = {},
  expected = 200,
): Promise<Json> {
  const answer = await call(app, agent, 'POST', `/contracts/${id}/${path}`, { body });
  assert.equal(answer.status, expected, answer.text);
  const read = await call(app, agent, 'GET', `/contracts/${id}`);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(answer.json, read.json, `${path}: the answer is the view a GET reads`);
  return answer.json;
}

/** The same, and neither the answer nor the GET after it took a workflow query. */
async function answersWithoutQuery(
  api: FreshApp,
  agent: TestAgent,
  id: string,
  path: string,
  body: unknown = {},
): Promise<Json> {
  const before = api.queries();
  const answer = await call(api.app, agent, 'POST', `/contracts/${id}/${path}`, { body });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(api.queries(), before, `${path}: answered without a query`);
  const read = await call(api.app, agent, 'GET', `/contracts/${id}`);
  assert.equal(api.queries(), before, `${path}: read without a query`);
  assert.deepEqual(answer.json, read.json, `${path}: the answer is the view a GET reads`);
  return answer.json;
}

async function created(app: App, client: TestAgent, body: object): Promise<string> {
  const res = await call(app, client, 'POST', '/contracts', { body });
  assert.equal(res.status, 201, res.text);
  return res.json.contractId;
}

async function funded(count: number): Promise<TestAgent[]> {
  const agents = Array.from({ length: count }, newAgent);
  for (const agent of agents) await h().fund(agent.address, FUNDS);
  return agents;
}

const delivery = { ...DELIVERY_REF, content: { text: 'done' } };

interface FreshApp {
  app: App;
  queries(): number;
  close(): void;
}

/**
 * A second app on the same stack: a fresh gateway remembers nothing (an API process restarted). Its
 * Temporal client counts the workflow queries it sends.
 */
function freshApp(harness: AppHarness): FreshApp {
  const { dir, remove } = makeDir('api-fresh');
  const stores = openApiStores(dir, harness.settings.vaultMasterKey);
  const { temporal, queries } = queryCountingClient(harness);
  const app = appOn(
    harness.env,
    harness.settings,
    {
      ledger: harness.ledger,
      records: harness.records,
      stores: { ...stores, vault: harness.vault },
      taskQueue: TASK_QUEUE,
    },
    { temporal },
  );
  return {
    app,
    queries,
    close() {
      closeApiStores(stores);
      remove();
    },
  };
}

describe('a message answers the view a GET reads right after it', () => {
  test('FDP: accept, deliver, approve (terminal: from the record); a stranger and a retried delivery', async () => {
    const [client, worker, stranger] = await funded(3);
    const api = freshApp(h());
    after(() => api.close());
    const id = await created(api.app, client!, contractBody(worker!.address));
    assert.equal((await answersWithoutQuery(api, worker!, id, 'accept')).status, 'matched');
    assert.equal(
      (await answersWithoutQuery(api, worker!, id, 'deliveries', delivery)).status,
      'under-review',
    );
    // The same delivery again is a retry of the accepted one: its Update is refused, the view answers it.
    await answersAsGet(api.app, worker!, id, 'deliveries', delivery);
    const refused = await call(api.app, stranger, 'POST', `/contracts/${id}/deliveries`, { body: delivery });
    assert.deepEqual(
      [refused.status, refused.json.error.code, refused.json.error.message],
      [403, 'not_worker', 'only the matched Worker delivers'],
    );
    assert.equal((await answersWithoutQuery(api, client!, id, 'approve')).status, 'settled-fully-met');
    assert.ok(await h().records.get(id), 'the terminal contract has its record');
  });

  test('decline, cancel, withdraw', async () => {
    const [client, worker] = await funded(2);
    const api = freshApp(h());
    after(() => api.close());
    const declined = await created(api.app, client!, contractBody(worker!.address));
    assert.equal(
      (await answersWithoutQuery(api, worker!, declined, 'decline')).status,
      'cancelled-unmatched',
    );
    const cancelled = await created(api.app, client!, contractBody(worker!.address));
    assert.equal(
      (await answersWithoutQuery(api, client!, cancelled, 'cancel')).status,
      'cancelled-by-client',
    );
    const withdrawn = await created(api.app, client!, contractBody(worker!.address));
    await answersWithoutQuery(api, worker!, withdrawn, 'accept');
    assert.equal(
      (await answersWithoutQuery(api, worker!, withdrawn, 'withdraw')).status,
      'cancelled-withdrawn',
    );
  });

  test('an auction: quotes and the award (receipts), then the Client sees every quote in its dispute’s answer; votes', async () => {
    const [client, bidder, other] = await funded(3);
    const bas = await eligibleAgents(h(), 3);
    const api = freshApp(h());
    after(() => api.close());
    const id = await created(
      api.app,
      client!,
      contractBody(undefined, { contractType: 'auction', amount: BUDGET.toString() }),
    );
    const quote = await answersAsGet(
      api.app,
      bidder!,
      id,
      'quotes',
      { price: '3000000', message: 'soon' },
      201,
    );
    assert.equal(quote.ownQuote.message, 'soon');
    await answersAsGet(api.app, other!, id, 'quotes', { price: '4000000' }, 201);
    const awarded = await answersAsGet(api.app, client!, id, 'award', {});
    assert.deepEqual(
      [awarded.status, awarded.worker, awarded.quotes.length],
      ['matched', bidder!.address, 2],
    );
    await answersWithoutQuery(api, bidder!, id, 'deliveries', delivery);
    const disputed = await answersWithoutQuery(api, client!, id, 'disputes', { claims: ['met', 'not met'] });
    assert.deepEqual([disputed.status, disputed.quotes.length], ['disputed', 2]);
    const panel = bas.filter((ba) => disputed.backupAgents.includes(ba.address));
    assert.equal(panel.length, 3);
    // The last vote decides the tally, which moves on after its answer: the first two are compared.
    for (const ba of panel.slice(0, 2)) {
      const voted = await answersWithoutQuery(api, ba, id, 'votes', { votes: ['met', 'not met'] });
      assert.equal(voted.view, 'party');
    }
  });

  test('an API process that remembers nothing of the contract reads the view, and answers the same', async () => {
    const [client, worker] = await funded(2);
    const id = await created(h().app, client!, contractBody(worker!.address));
    const [first, second] = [freshApp(h()), freshApp(h())];
    try {
      await answersAsGet(first.app, worker!, id, 'accept');
      // The delivery, criteria unknown to this process: checked on the view before its Update.
      await answersAsGet(second.app, worker!, id, 'deliveries', delivery);
    } finally {
      first.close();
      second.close();
    }
  });

  test('an Update ID taken before answers the view now, not the one back then', async () => {
    const [client, worker] = await funded(2);
    const id = await created(h().app, client!, contractBody(worker!.address));
    const gateway = createContractGateway({
      client: createTemporalClient({
        connection: h().env.connection,
        namespace: h().env.namespace ?? 'default',
        codecKey: h().settings.payloadCodecKey,
      }),
      taskQueue: TASK_QUEUE,
      records: h().records,
      cursorKey: h().settings.cursorKey,
    });
    const first: ContractView = await gateway.send(
      id,
      acceptUpdate,
      { caller: worker!.address },
      'api-retry',
    );
    assert.equal(first.status, 'matched');
    await answersAsGet(h().app, worker!, id, 'deliveries', delivery);
    const again = await gateway.send(id, acceptUpdate, { caller: worker!.address }, 'api-retry');
    assert.deepEqual(again, await gateway.view(id));
    assert.equal(again.status, 'under-review');
    // An unknown Update ID of a refused message is no earlier answer.
    assert.equal(await gateway.earlierAnswer(id, 'api-never'), undefined);
  });
});

describe('reads of one contract cost no query', () => {
  test('a crowd of reads costs no query; after a message, the next read sees it', async () => {
    const [client, worker] = await funded(2);
    const api = freshApp(h());
    after(() => api.close());
    const id = await created(api.app, client!, contractBody(worker!.address));
    const before = api.queries();
    const crowd = await Promise.all(
      Array.from({ length: 30 }, () => call(api.app, undefined, 'GET', `/contracts/${id}`)),
    );
    assert.deepEqual(new Set(crowd.map((r) => r.status)), new Set([200]));
    assert.deepEqual(new Set(crowd.map((r) => r.json.status)), new Set(['created']));
    assert.equal(api.queries() - before, 0, 'thirty reads at once, no query');

    // A read in flight while the Worker accepts is not shared with the reads after the acceptance.
    const during = call(api.app, undefined, 'GET', `/contracts/${id}`);
    const accepted = await call(api.app, worker!, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    await during;
    const read = await call(api.app, undefined, 'GET', `/contracts/${id}`);
    assert.equal(read.json.status, 'matched');
    for (const path of ['events', 'votes']) {
      const res = await call(api.app, undefined, 'GET', `/contracts/${id}/${path}`);
      assert.equal(res.status, 200, res.text);
    }
    const listed = await call(api.app, undefined, 'GET', '/contracts?limit=5');
    assert.equal(listed.status, 200, listed.text);
    assert.equal(api.queries() - before, 0, 'views, events, votes and the listing: no query');
  });
});

describe('a feed touch that fails', () => {
  test('changes no answer: the message stands, the failure is logged', async () => {
    const [client, worker] = await funded(2);
    const { dir, remove } = makeDir('api-touch-fails');
    const stores = openApiStores(dir, h().settings.vaultMasterKey);
    after(() => {
      closeApiStores(stores);
      remove();
    });
    const logged: unknown[] = [];
    const app = appOn(
      h().env,
      h().settings,
      {
        ledger: h().ledger,
        records: h().records,
        stores: { ...stores, vault: h().vault },
        taskQueue: TASK_QUEUE,
      },
      {
        feed: {
          ...h().feed.deps,
          touch: () => Promise.reject(new Error('the feed database is down')),
        },
        logError: (err) => logged.push(err),
      },
    );
    const id = await created(app, client!, contractBody(worker!.address));
    const accepted = await call(app, worker!, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.json.status, 'matched');
    const again = await call(app, worker!, 'POST', `/contracts/${id}/accept`, { body: {} });
    assert.equal(again.status, 409, again.text);
    assert.deepEqual(
      logged.map((e) => (e as Error).message),
      Array(3).fill('the feed database is down'),
      'the creation and both accepts each logged their failed touch',
    );
  });
});
