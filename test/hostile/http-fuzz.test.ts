// HTTP-level fuzzing of the real app (app.request on a real Temporal server and the real ledger):
// every route of the OpenAPI document, sent generated hostile inputs — wrong types, extreme depth and
// length, odd Unicode, huge numbers, broken signatures — by many keys, then the same requests
// concurrently. Whatever is sent: never a 5xx; a refused request changes no balance, hold or status;
// and every balance stays exact (what an agent was given, less what it withdrew, is what it has,
// available or held). OPENCONTRACT_FUZZ_RUNS sets the number of sequential cases (default 150).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { agentOwner } from '../../store/ledger';
import { signRequest } from '../../sdk/typescript/signer';
import { fromAddress } from '../api/support';
import type { App } from '../../api/app';
import {
  BUDGET,
  contractBody,
  DELIVERY_REF,
  FUNDS,
  MATERIALS,
  newAgent,
  type TestAgent,
} from '../support/fixtures';
import { OPERATOR_TOKEN, useAppHarness } from '../support/service';

const h = useAppHarness();
const RUNS = Number(process.env.OPENCONTRACT_FUZZ_RUNS ?? 150);

/** Route templates: a well-formed body per route, which the fuzzer then breaks field by field. */
const BODIES: Record<string, () => Record<string, unknown>> = {
  'POST /contracts': () => contractBody(undefined, { supplementaryMaterials: MATERIALS }),
  'POST /contracts/{id}/quotes': () => ({ price: '2000000', confidence: 0.5, message: 'hi' }),
  'POST /contracts/{id}/award': () => ({ quoteId: 'q1' }),
  'POST /contracts/{id}/deliveries': () => ({ ...DELIVERY_REF, content: { a: [1, { b: 'c' }] } }),
  'POST /contracts/{id}/disputes': () => ({ claims: ['met', 'not met'] }),
  'POST /contracts/{id}/votes': () => ({ votes: ['met', 'unclear'] }),
  'POST /contracts/{id}/appeals': () => ({ waive: true }),
  'POST /eligibility/lock': () => ({ amount: '1000' }),
  'POST /eligibility/unlock': () => ({ amount: '1000' }),
  'POST /agents/{address}/withdrawals': () => ({ amount: '1000', destination: 'acct-1' }),
  'POST /operator/deposits': () => ({ address: newAgent().address, asset: 'USDC', amount: '1' }),
  'POST /operator/contracts/{id}/verdicts': () => ({ verdicts: ['met', 'met'] }),
  'POST /operator/payouts/{id}/paid': () => ({ reference: 'tx' }),
};

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const ODD = ['\u202E', '\u0000', '\uD800', '\uFEFF', '😀', 'é', '\n\r', '\u2028', '%00', '../', '<script>'];

/** A hostile JSON value: wrong types, huge numbers, long and odd strings. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, -1, 0, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, [], {}),
  fc.constantFrom(
    '',
    '0',
    '-1',
    '1e9',
    '0x10',
    ' 1',
    '1.0',
    '9'.repeat(400),
    '340282366920938463463374607431768211457',
  ),
  fc.constantFrom(...ODD),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 30 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 5 }),
);

type BodyCase = { kind: 'none' } | { kind: 'raw'; text: string } | { kind: 'json'; value: unknown };

function bodyArb(route: string): fc.Arbitrary<BodyCase> {
  const template = BODIES[route];
  const broken = template
    ? fc.tuple(fc.nat(), hostileValue, fc.boolean()).map(([i, v, extra]): BodyCase => {
        const body = template();
        const keys = Object.keys(body);
        if (extra) body[`extra${i % 3}`] = v;
        else body[keys[i % keys.length]!] = v;
        return { kind: 'json', value: body };
      })
    : fc.constant<BodyCase>({ kind: 'none' });
  // The well-formed body with one field nested thousands deep (as text: JSON.stringify would recurse).
  const deepField = template
    ? fc.tuple(fc.nat(), fc.constantFrom(40, 3_000, 20_000)).map(([i, depth]): BodyCase => {
        const body = template();
        const keys = Object.keys(body);
        body[keys[i % keys.length]!] = '\u0000DEEP';
        return { kind: 'raw', text: JSON.stringify(body).replace('"\\u0000DEEP"', `{"a":${deep(depth)}}`) };
      })
    : fc.constant<BodyCase>({ kind: 'none' });
  return fc.oneof(
    { weight: 4, arbitrary: broken },
    { weight: 1, arbitrary: deepField },
    { weight: 1, arbitrary: hostileValue.map((value): BodyCase => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<BodyCase>(
        { kind: 'raw', text: `{"a":${deep(50_000)}}` },
        { kind: 'raw', text: `{"content":{"a":${deep(33)}}}` },
        {
          kind: 'raw',
          text: `{"uri":"${DELIVERY_REF.uri}","sha256":"${DELIVERY_REF.sha256}","key":"k","content":{"a":${deep(20_000)}}}`,
        },
        { kind: 'raw', text: '{"amount": 1' },
        { kind: 'raw', text: '"\\ud800"' },
        { kind: 'raw', text: `{"amount":"${'9'.repeat(100_000)}"}` },
        { kind: 'none' },
      ),
    },
  );
}

interface World {
  app: App;
  /** Contract IDs in several states, plus the routes' other path values. */
  ids: string[];
  strangers: TestAgent[];
  /** What each stranger was given. */
  funded: Map<string, bigint>;
  parties: TestAgent[];
  routes: { method: string; path: string }[];
}

type SignCase = 'unsigned' | 'signed' | 'bad-signature' | 'other-body' | 'operator';

interface Case {
  route: number;
  id: number;
  addressPick: number;
  agent: number;
  sign: SignCase;
  body: BodyCase;
  key: string | undefined;
  ip: number;
}

/** Who may sign: the strangers, then the parties (the Client, the Worker, a third funded agent). */
const signers = (world: World) => [...world.strangers, ...world.parties];

/** Mostly a contract that exists, sometimes an ID that does not or cannot. */
const idArb = (world: World) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.nat({ max: 3 }) },
    { weight: 1, arbitrary: fc.nat({ max: world.ids.length - 1 }) },
  );

/** Half the time a stranger, half the time a party (the Client or the Worker of the contracts). */
const signerArb = (world: World) =>
  fc.oneof(
    fc.nat({ max: world.strangers.length - 1 }),
    fc.nat({ max: world.parties.length - 1 }).map((i) => world.strangers.length + i),
  );

function caseArb(world: World): fc.Arbitrary<Case> {
  return fc.nat({ max: world.routes.length - 1 }).chain((route) => {
    const r = world.routes[route]!;
    return fc.record({
      route: fc.constant(route),
      id: idArb(world),
      addressPick: fc.nat({ max: 3 }),
      agent: signerArb(world),
      sign: fc.constantFrom<SignCase>(
        'signed',
        'signed',
        'signed',
        'unsigned',
        'bad-signature',
        'other-body',
        'operator',
      ),
      body: r.method === 'post' ? bodyArb(`POST ${r.path}`) : fc.constant<BodyCase>({ kind: 'none' }),
      key: fc.option(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constant('k'.repeat(300))), {
        nil: undefined,
      }),
      ip: fc.nat({ max: 5 }),
    });
  });
}

function pathOf(world: World, c: Case): string {
  const r = world.routes[c.route]!;
  const agent = signers(world)[c.agent]!;
  const address = [agent.address, world.parties[0]!.address, 'not-an-address', '0X' + 'A'.repeat(40)][
    c.addressPick
  ]!;
  return r.path
    .replace('{id}', encodeURIComponent(world.ids[c.id]!))
    .replace('{address}', encodeURIComponent(address));
}

async function send(world: World, c: Case): Promise<{ status: number; text: string; path: string }> {
  const r = world.routes[c.route]!;
  const method = r.method.toUpperCase();
  const path = pathOf(world, c);
  const text =
    c.body.kind === 'none'
      ? undefined
      : c.body.kind === 'raw'
        ? c.body.text
        : (JSON.stringify(c.body.value) ?? 'null');
  const agent = signers(world)[c.agent]!;
  const headers: Record<string, string> = text === undefined ? {} : { 'Content-Type': 'application/json' };
  if (c.sign === 'signed' || c.sign === 'bad-signature' || c.sign === 'other-body') {
    const signed = signRequest({
      method,
      url: path,
      privateKey: agent.key,
      ...(c.sign === 'other-body' ? { body: '{}' } : text === undefined ? {} : { body: text }),
    });
    Object.assign(headers, signed);
    if (c.sign === 'bad-signature')
      headers.Signature = 'sig1=:' + Buffer.alloc(65, 7).toString('base64') + ':';
  }
  if (c.sign === 'operator') headers.Authorization = `Bearer ${OPERATOR_TOKEN}`;
  if (c.key !== undefined) headers['Idempotency-Key'] = c.key.replace(/[^\x20-\x7e]/g, '?');
  const res = await world.app.request(
    path,
    { method, headers, ...(text === undefined ? {} : { body: text }) },
    fromAddress(`10.77.0.${c.ip}`),
  );
  return { status: res.status, text: (await res.text()).slice(0, 300), path: `${method} ${path}` };
}

/** Every balance and open hold of the tracked agents, and the contracts' statuses. */
async function snapshot(world: World): Promise<string> {
  const parts: string[] = [];
  for (const a of [...world.strangers, ...world.parties]) {
    const b = await h().ledger.balances(agentOwner(a.address));
    const holds = await h().ledger.holdsOf(agentOwner(a.address), { open: true });
    parts.push(`${a.address}:${b.USDC.available}/${b.USDC.held}:${holds.map((x) => x.id).join(',')}`);
  }
  for (const id of world.ids.slice(0, 4)) {
    const view = await world.app.request(`/contracts/${id}`);
    parts.push(`${id}:${((await view.json()) as { status: string }).status}`);
  }
  return parts.join('\n');
}

/** Each stranger holds exactly what it was given, less what it asked to withdraw. */
async function assertExact(world: World): Promise<void> {
  for (const a of world.strangers) {
    const b = await h().ledger.balances(agentOwner(a.address));
    const url = `/agents/${a.address}/withdrawals`;
    const listed = await world.app.request(url, {
      headers: { ...signRequest({ method: 'GET', url, privateKey: a.key }) },
    });
    const { payouts } = (await listed.json()) as { payouts: { amount: string }[] };
    const out = payouts.reduce((sum, p) => sum + BigInt(p.amount), 0n);
    assert.equal(b.USDC.available + b.USDC.held + out, world.funded.get(a.address) ?? 0n, a.address);
  }
  await h().ledger.audit();
}

describe('HTTP fuzzing over every route', () => {
  let world: World;
  before(async () => {
    // The harness's app: the rate limits out of the way (test/hostile/rate-limits.test.ts tests them).
    const app = h().app;
    const parties = Array.from({ length: 3 }, newAgent);
    for (const p of parties) await h().fund(p.address, FUNDS * 10n);
    const [client, worker] = parties as [TestAgent, TestAgent, TestAgent];
    const create = async (body: object) => {
      const text = JSON.stringify(body);
      const res = await app.request('/contracts', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...signRequest({ method: 'POST', url: '/contracts', privateKey: client.key, body: text }),
        },
        body: text,
      });
      assert.equal(res.status, 201, await res.clone().text());
      return ((await res.json()) as { contractId: string }).contractId;
    };
    const direct = await create(contractBody(worker.address));
    const open = await create(contractBody(undefined));
    const auction = await create(
      contractBody(undefined, { contractType: 'auction', amount: BUDGET.toString() }),
    );
    const matched = await create(contractBody(worker.address));
    const accept = signRequest({
      method: 'POST',
      url: `/contracts/${matched}/accept`,
      privateKey: worker.key,
      body: '{}',
    });
    const accepted = await app.request(`/contracts/${matched}/accept`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...accept },
      body: '{}',
    });
    assert.equal(accepted.status, 200);
    const strangers = Array.from({ length: 12 }, newAgent);
    const funded = new Map<string, bigint>();
    for (const [i, s] of strangers.entries()) {
      if (i % 3 === 0) continue; // a third hold nothing at all
      const amount = i % 3 === 1 ? 3_000_000n : 300_000_000n;
      await h().fund(s.address, amount);
      funded.set(s.address, amount);
    }
    const doc = app.getOpenAPIDocument({ openapi: '3.0.3', info: { title: 't', version: '1' } });
    // Every route but the event streams (they stay open: test/hostile/rate-limits.test.ts covers them).
    const routes = Object.entries(doc.paths ?? {})
      .filter(([path]) => !path.endsWith('/stream'))
      .flatMap(([path, item]) =>
        Object.keys(item ?? {})
          .filter((m) => ['get', 'post', 'delete', 'put'].includes(m))
          .map((method) => ({ method, path })),
      );
    const ids = [direct, open, auction, matched, 'nope', '0'.repeat(36), '%2e%2e', 'x'.repeat(3000), '😀'];
    world = { app, ids, strangers, funded, parties, routes };
  });

  test(`${RUNS} hostile requests, one at a time: never 5xx, a refusal changes nothing, balances exact`, async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(caseArb(world), async (c) => {
        const beforeState = await snapshot(world);
        const res = await send(world, c);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        assert.ok(res.status < 500, `${res.path} → ${res.status} ${res.text}`);
        if (res.status >= 400)
          assert.equal(await snapshot(world), beforeState, `${res.path} → ${res.status} changed state`);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    await assertExact(world);
    // The run must have reached past validation, not only bounced off it.
    assert.ok(
      [...seen.keys()].some((s) => s < 300),
      JSON.stringify([...seen]),
    );
    assert.ok(
      [...seen.keys()].some((s) => s >= 400),
      JSON.stringify([...seen]),
    );
  });

  test('the same requests concurrently from many keys: never 5xx, balances exact', async () => {
    const cases = fc.sample(caseArb(world), { numRuns: Math.max(60, RUNS / 2), seed: 42 });
    for (let i = 0; i < cases.length; i += 20) {
      const wave = cases
        .slice(i, i + 20)
        .flatMap((c) => [c, { ...c, agent: (c.agent + 1) % signers(world).length }]);
      const answers = await Promise.all(wave.map((c) => send(world, c)));
      for (const a of answers) assert.ok(a.status < 500, `${a.path} → ${a.status} ${a.text}`);
    }
    await assertExact(world);
  });
});
