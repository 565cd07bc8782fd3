// Rate limits and stream caps (docs/security.md "API limits"). A burst past an agent's bucket answers
// 429 `rate_limited` with Retry-After and changes nothing; unsigned callers and forged signatures spend
// their address's buckets and never refuse a signed agent; keys minted on one host share its budget;
// strangers' streams are capped per address and in total, parties' streams are reserved; and two API
// processes on one PostgreSQL spend from one bucket and count one set of streams, whose slots
// expire when a process dies without giving them back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PostgresPool } from '../../store';
import { openPostgresPool } from '../../store';
import { PostgresRateLimitStore, PostgresStreamSlots } from '../../store/rate-limit/postgres';
import type { RateLimitSettings } from '../../api/http/rate-limit';
import { MemoryStreamSlots } from '../../store/stream-caps';
import { signRequest } from '../../sdk/typescript/signer';
import { useAppHarness } from '../support/service';
import { startPostgres, type PostgresServer } from '../support/postgres';
import { call, fromAddress } from '../api/support';
import { appBeside, assertNothingHeld, type SideApp } from './side-app';
import { contractBody, newAgent, PRICE, type TestAgent } from '../support/fixtures';

const h = useAppHarness();
/** So slow a refill that no token comes back during a test. */
const SLOW = 0.001;

const sides: SideApp[] = [];
function side(limits: Partial<RateLimitSettings>, extra: Parameters<typeof appBeside>[1] = {}) {
  const made = appBeside(h(), { ...extra, limits: { ...extra.limits, settings: limits } });
  sides.push(made);
  return made.app;
}
after(() => sides.forEach((s) => s.close()));

function assertRateLimited(res: { status: number; json: { error: { code: string } }; headers: Headers }) {
  assert.equal(res.status, 429, JSON.stringify(res.json));
  assert.equal(res.json.error.code, 'rate_limited');
  assert.match(res.headers.get('Retry-After') ?? '', /^[1-9]\d*$/);
}

test('a burst of creates past the agent bucket: 429 with Retry-After, nothing created or held', async () => {
  const app = side({ agent: { burst: 3, perSecond: SLOW } });
  const client = newAgent();
  await h().fund(client.address, 10n * PRICE);
  const answers = [];
  for (let i = 0; i < 6; i++) {
    answers.push(await call(app, client, 'POST', '/contracts', { body: contractBody(newAgent().address) }));
  }
  assert.deepEqual(
    answers.map((a) => a.status),
    [201, 201, 201, 429, 429, 429],
  );
  for (const refused of answers.slice(3)) assertRateLimited(refused);
  // Retry-After: one token at 0.001/s is 1000 s away (less what refilled during the creates).
  const wait = Number(answers[3]!.headers.get('Retry-After'));
  assert.ok(wait > 950 && wait <= 1000, String(wait));
  const { USDC } = await h().balances(client.address);
  assert.deepEqual([USDC.available, USDC.held], [7n * PRICE, 3n * PRICE]);

  // Another agent is not affected; the three contracts are the Client's to cancel (through an
  // unlimited app: this one's bucket is empty), and nothing stays held.
  const other = newAgent();
  assert.equal((await call(app, other, 'GET', `/agents/${other.address}/balances`)).status, 200);
  for (const created of answers.slice(0, 3)) {
    const id = created.json.contractId;
    const cancelled = await call(h().app, client, 'POST', `/contracts/${id}/cancel`, { body: {} });
    assert.equal(cancelled.json.status, 'cancelled-by-client', cancelled.text);
  }
  await assertNothingHeld(h(), [client.address]);
  const end = await h().balances(client.address);
  assert.deepEqual([end.USDC.available, end.USDC.held], [10n * PRICE, 0n]);
});

test('unsigned reads spend the address bucket, forged signatures the unverified one; neither refuses signed agents', async () => {
  const app = side({
    address: { burst: 4, perSecond: SLOW },
    unverified: { burst: 2, perSecond: SLOW },
    agent: { burst: 50, perSecond: SLOW },
  });
  const agent = newAgent();
  const forger = newAgent();
  const own = () => call(app, agent, 'GET', `/agents/${agent.address}/balances`);
  const forged = () =>
    call(app, forger, 'GET', `/agents/${forger.address}/balances`, { headers: { Signature: 'sig1=:AAAA:' } });
  for (let i = 0; i < 4; i++) assert.equal((await call(app, undefined, 'GET', '/params')).status, 200);
  assertRateLimited(await call(app, undefined, 'GET', '/params'));
  // The unsigned flood emptied its bucket; the signed agent from the same address is served.
  assert.equal((await own()).status, 200);
  // A signature that does not verify: 401, charged to the address's unverified bucket.
  assert.equal((await forged()).status, 401);
  // Signature headers on a public route do not make a request free either.
  assert.equal((await call(app, agent, 'GET', '/params')).status, 200);
  // Once that bucket is empty, nothing with signature headers from the address is verified until it refills.
  assertRateLimited(await forged());
  assertRateLimited(await own());
  // Another address is untouched.
  assert.equal(
    (await call(app, agent, 'GET', `/agents/${agent.address}/balances`, { from: '10.9.9.9' })).status,
    200,
  );
});

test('an unsigned flood from an address leaves every signed read from it served', async () => {
  const app = side({ address: { burst: 20, perSecond: SLOW } });
  const honest = newAgent();
  const flood = Array.from({ length: 60 }, () =>
    call(app, undefined, 'GET', '/params', { from: '10.1.1.1' }),
  );
  const reads = Array.from({ length: 10 }, () =>
    call(app, honest, 'GET', `/agents/${honest.address}/balances`, { from: '10.1.1.1' }),
  );
  const [flooded, served] = [await Promise.all(flood), await Promise.all(reads)];
  assert.equal(flooded.filter((r) => r.status === 429).length, 40);
  assert.deepEqual(
    served.map((r) => r.status),
    Array(10).fill(200),
  );
});

test('keys minted on one host share its budget: ten keys get no more than the host bucket', async () => {
  const host = { burst: 30, perSecond: SLOW };
  const app = side({ agent: { burst: 10, perSecond: SLOW }, host });
  const keys = Array.from({ length: 10 }, newAgent);
  const answers = await Promise.all(
    keys.flatMap((k) =>
      Array.from({ length: 10 }, () =>
        call(app, k, 'GET', `/agents/${k.address}/balances`, { from: '10.2.2.2' }),
      ),
    ),
  );
  assert.equal(answers.filter((r) => r.status === 200).length, host.burst);
  for (const refused of answers.filter((r) => r.status !== 200)) assertRateLimited(refused);
  // An agent on another host keeps its own whole budget.
  const elsewhere = newAgent();
  const own = await Promise.all(
    Array.from({ length: 10 }, () =>
      call(app, elsewhere, 'GET', `/agents/${elsewhere.address}/balances`, { from: '10.3.3.3' }),
    ),
  );
  assert.deepEqual(
    own.map((r) => r.status),
    Array(10).fill(200),
  );
});

describe('event streams', () => {
  let id: string;
  let client: TestAgent;
  let worker: TestAgent;
  before(async () => {
    client = newAgent();
    worker = newAgent();
    await h().fund(client.address, PRICE);
    const created = await call(h().app, client, 'POST', '/contracts', { body: contractBody(worker.address) });
    id = created.json.contractId;
  });
  const path = () => `/contracts/${id}/events/stream`;

  test('strangers are capped per address (whatever keys sign) and in total; a closed stream frees its slot', async () => {
    const app = side({ streamsPerCaller: 1, streamsTotal: 2 });
    const first = await stream(app, undefined, path(), '10.4.0.1');
    assert.equal(first.status, 200);
    assertRateLimited(await call(app, undefined, 'GET', path(), { from: '10.4.0.1' }));
    // A fresh key from the same address is the same stranger.
    assert.equal((await stream(app, newAgent(), path(), '10.4.0.1')).status, 429);
    const second = await stream(app, newAgent(), path(), '10.4.0.2');
    assert.equal(second.status, 200);
    assert.equal((await stream(app, newAgent(), path(), '10.4.0.3')).status, 429, 'the service-wide cap');
    await first.body!.cancel();
    await second.body!.cancel();
    for (let i = 0; i < 50; i++) {
      const again = await stream(app, undefined, path(), '10.4.0.3');
      if (again.status === 200) {
        await again.body!.cancel();
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail('the closed streams never gave their slots back');
  });

  test('unfunded keys holding every slot do not shut out the parties’ streams of their contract', async () => {
    const slots = new MemoryStreamSlots();
    const app = side(
      { streamsPerCaller: 8, streamsTotal: 24, streamsPerParty: 2 },
      { limits: { streams: slots } },
    );
    const taken: Response[] = [];
    for (let host = 1; host <= 3; host++) {
      for (let i = 0; i < 8; i++) {
        const res = await stream(app, newAgent(), path(), `10.5.0.${host}`);
        assert.equal(res.status, 200);
        taken.push(res);
      }
    }
    assert.equal(
      (await stream(app, newAgent(), path(), '10.5.0.9')).status,
      429,
      'every stranger slot is taken',
    );
    const mine = [
      await stream(app, client, path(), '10.5.0.1'),
      await stream(app, worker, path(), '10.5.0.2'),
    ];
    assert.deepEqual(
      mine.map((r) => r.status),
      [200, 200],
    );
    // A party's reserved room is per party and contract, not a way around the strangers' caps.
    const second = await stream(app, client, path(), '10.5.0.1');
    assert.equal(second.status, 200);
    assert.equal((await stream(app, client, path(), '10.5.0.1')).status, 429);
    for (const res of [...taken, ...mine, second]) await res.body!.cancel();
    // Every stream gave its slot back (none still polling the contract when the suite ends).
    const none = async (owner: string, caps: { perCaller: number; total?: number }) => {
      const probe = await slots.acquire(owner, caps);
      if (probe !== undefined) await slots.release(probe);
      return probe !== undefined;
    };
    const free = async () =>
      (await none('probe', { perCaller: 100, total: 1 })) &&
      (await none(`party:${id}:${client.address}`, { perCaller: 1 })) &&
      (await none(`party:${id}:${worker.address}`, { perCaller: 1 }));
    let released = false;
    for (let i = 0; i < 100 && !released; i++) {
      released = await free();
      if (!released) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(released, 'every stream gave its slot back');
  });

  test('strangers holding every slot do not shut an agent at stake out of its own feed stream; minted keys get no such room', async () => {
    const app = side(
      { streamsPerCaller: 2, streamsTotal: 4, streamsPerParty: 1 },
      { limits: { streams: new MemoryStreamSlots() }, feed: h().feed.deps },
    );
    const feedPath = (agent: TestAgent) => `/agents/${agent.address}/feed/stream`;
    const taken: Response[] = [];
    for (const host of ['10.6.0.1', '10.6.0.2']) {
      for (let i = 0; i < 2; i++) {
        const crowd = newAgent();
        const res = await stream(app, crowd, feedPath(crowd), host);
        assert.equal(res.status, 200);
        taken.push(res);
      }
    }
    // A fresh key's own feed from a new address: nothing at stake, so the service-wide cap refuses it.
    const minted = newAgent();
    assert.equal((await stream(app, minted, feedPath(minted), '10.6.0.9')).status, 429);
    // The Client holds its escrow (at least a minimum Worker Stake): its own feed has a reserved room.
    const own = await stream(app, client, feedPath(client), '10.6.0.1');
    assert.equal(own.status, 200);
    assert.equal((await stream(app, client, feedPath(client), '10.6.0.1')).status, 429, 'one per agent here');
    for (const res of [...taken, own]) await res.body!.cancel();
  });
});

/** An event stream request, signed by `agent` unless undefined, as if from `ip`. */
function stream(
  app: SideApp['app'],
  agent: TestAgent | undefined,
  path: string,
  ip: string,
): Promise<Response> {
  const headers = agent === undefined ? {} : signRequest({ method: 'GET', url: path, privateKey: agent.key });
  return Promise.resolve(app.request(path, { headers: { ...headers } }, fromAddress(ip)));
}

describe('two API processes on one PostgreSQL', () => {
  let pg: PostgresServer;
  const pools: PostgresPool[] = [];
  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    for (const pool of pools) await pool.end();
    await pg?.stop();
  });

  async function process(database: string, options?: { now?: () => number; ttlMs?: number }) {
    const pool = await openPostgresPool({ connectionString: database });
    pools.push(pool);
    return {
      store: await PostgresRateLimitStore.open(pool),
      streams: await PostgresStreamSlots.open(pool, options),
    };
  }

  test('share one bucket: the burst is spent once across both', async () => {
    const database = await pg.createDatabase('limits_shared');
    const [a, b] = [await process(database), await process(database)];
    const limits = { agent: { burst: 4, perSecond: SLOW } };
    const appA = side(limits, { limits: { store: a.store } });
    const appB = side(limits, { limits: { store: b.store } });
    const agent = newAgent();
    const path = `/agents/${agent.address}/balances`;
    const statuses = [];
    for (const app of [appA, appB, appA, appB, appA, appB])
      statuses.push((await call(app, agent, 'GET', path)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);

    // Concurrent takes from both processes never hand out more than the burst.
    const burst = newAgent();
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 === 0 ? appA : appB, burst, 'GET', `/agents/${burst.address}/balances`),
      ),
    );
    assert.equal(many.filter((r) => r.status === 200).length, 4);
    assert.equal(many.filter((r) => r.status === 429).length, 16);
  });

  test('share one set of stream slots; a crashed process’s slots expire', async () => {
    const database = await pg.createDatabase('limits_streams');
    let now = 1_000_000;
    const clock = { now: () => now, ttlMs: 60_000 };
    const [a, b] = [await process(database, clock), await process(database, clock)];
    const caps = { perCaller: 2, total: 3 };
    const a1 = await a.streams.acquire('agent:x', caps);
    const b1 = await b.streams.acquire('agent:x', caps);
    assert.ok(a1 && b1);
    assert.equal(await a.streams.acquire('agent:x', caps), undefined, 'per caller, across processes');
    const b2 = await b.streams.acquire('agent:y', caps);
    assert.ok(b2);
    assert.equal(await a.streams.acquire('agent:z', caps), undefined, 'in total, across processes');
    await b.streams.release(b2);
    const a2 = await a.streams.acquire('agent:z', caps);
    assert.ok(a2);
    // Process B dies holding b1; A keeps its streams alive. After the expiry b1 is free again.
    now += 40_000;
    await a.streams.heartbeat(a1);
    await a.streams.heartbeat(a2);
    now += 30_000;
    assert.ok(await a.streams.acquire('agent:x', caps), 'the dead process’s slot expired');
    assert.equal(await a.streams.acquire('agent:w', caps), undefined, 'the live ones did not');
  });
});
