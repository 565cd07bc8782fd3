// Unbounded consumption. A burst past an agent's bucket answers 429
// `rate_limited` with Retry-After and changes nothing; unsigned callers and forged signatures
// spend their address's bucket; open event streams are capped per caller and in total; and two API
// processes on one PostgreSQL spend from one bucket and count one set of streams, whose slots
// expire when a process dies without giving them back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PostgresPool } from '../../store';
import { openPostgresPool } from '../../store';
import { PostgresRateLimitStore, PostgresStreamSlots } from '../../store/rate-limit/postgres';
import type { RateLimitSettings } from '../../api/rate-limit';
import { signRequest } from '../../api/sdk/signer';
import { useAppHarness } from '../support/service';
import { startPostgres, type PostgresServer } from '../support/postgres';
import { call } from '../api/support';
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

test('unsigned reads and forged signatures spend the address bucket, then the address waits', async () => {
  const app = side({ address: { burst: 4, perSecond: SLOW }, agent: { burst: 50, perSecond: SLOW } });
  const agent = newAgent();
  const forger = newAgent();
  assert.equal((await call(app, undefined, 'GET', '/params')).status, 200);
  assert.equal((await call(app, undefined, 'GET', '/params')).status, 200);
  // A signature that does not verify: 401, and it costs its address a token.
  const bad = await call(app, forger, 'GET', `/agents/${forger.address}/balances`, {
    headers: { Signature: 'sig1=:AAAA:' },
  });
  assert.equal(bad.status, 401, bad.text);
  // Signature headers on a public route do not make a request free.
  assert.equal((await call(app, agent, 'GET', '/params')).status, 200);
  assertRateLimited(await call(app, undefined, 'GET', '/params'));
  // Once the address's bucket is empty, nothing from it is verified or served until it refills.
  assertRateLimited(
    await call(app, forger, 'GET', `/agents/${forger.address}/balances`, {
      headers: { Signature: 'sig1=:AAAA:' },
    }),
  );
  assertRateLimited(await call(app, agent, 'GET', `/agents/${agent.address}/balances`));
});

describe('event streams', () => {
  let id: string;
  before(async () => {
    const client = newAgent();
    await h().fund(client.address, PRICE);
    const created = await call(h().app, client, 'POST', '/contracts', {
      body: contractBody(newAgent().address),
    });
    id = created.json.contractId;
  });

  test('capped per caller and in total: 429 rate_limited; a closed stream frees its slot', async () => {
    const app = side({ streamsPerCaller: 1, streamsTotal: 2 });
    const path = () => `/contracts/${id}/events/stream`;
    const first = await app.request(path());
    assert.equal(first.status, 200);
    assertRateLimited(await call(app, undefined, 'GET', path()));
    const agent = newAgent();
    const signed = await signedStream(app, agent, path());
    assert.equal(signed.status, 200);
    const third = await signedStream(app, newAgent(), path());
    assert.equal(third.status, 429, 'the service-wide cap');
    await first.body!.cancel();
    await signed.body!.cancel();
    for (let i = 0; i < 50; i++) {
      const again = await app.request(path());
      if (again.status === 200) {
        await again.body!.cancel();
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail('the closed streams never gave their slots back');
  });
});

function signedStream(app: SideApp['app'], agent: TestAgent, path: string): Promise<Response> {
  const headers = signRequest({ method: 'GET', url: path, privateKey: agent.key });
  return Promise.resolve(app.request(path, { headers: { ...headers } }));
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
