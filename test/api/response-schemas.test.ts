// Every route's real answers against the document it publishes: each route is driven through
// app.request() on the real stack (dev server, worker, SQLite ledger and vault), to its success and
// its main refusals, and every JSON answer is validated against the response schema GET /openapi.json
// declares for that path, method and status, with objects closed: a field the document does not
// declare, a required one missing, or a status it does not list, fails the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signRequest } from '../../sdk/typescript/signer';
import { needsOperatorKey } from '../../workflows/search-attributes';
import { OPERATOR_TOKEN, useAppHarness } from '../support/service';
import { call, type CallOptions, type Json } from './support';
import { responseValidators, templateOf, type OpenApiDocument } from './openapi-validator';
import { BA_FUNDS, contractBody, DELIVERY_REF, FUNDS, newAgent, type TestAgent } from '../support/fixtures';
import { eventually } from '../support/eventually';

// A short recruitment window: an appeal nobody can seat goes to the trusted arbiter within seconds.
const h = useAppHarness({ params: { baRecruitmentWindow: 3000 } });

const STAKE = '100000000';
const MISSING = `c-${'a'.repeat(26)}`;
const MATERIALS = { uri: 'https://x.example/m.enc', sha256: 'ab'.repeat(32), key: 'materials-key' };
const OPERATOR = { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } };

let document: OpenApiDocument;
let validators: ReturnType<typeof responseValidators>;
/** `METHOD template status` of every answer seen. */
const seen = new Set<string>();

/** The published document, read once (the harness starts in the file's first hook). */
async function published(): Promise<void> {
  if (validators !== undefined) return;
  const res = await call(h().app, undefined, 'GET', '/openapi.json');
  assert.equal(res.status, 200);
  document = res.json;
  validators = responseValidators(document);
}

/** A call whose answer must be the one expected and must fit the document. */
async function answer(
  expected: number,
  agent: TestAgent | undefined,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Json> {
  await published();
  const res = await call(h().app, agent, method, path, options);
  assert.equal(res.status, expected, `${method} ${path}: ${res.text}`);
  const template = templateOf(document, path);
  assert.ok(template, `${path} is not in the document`);
  const op = method.toLowerCase();
  const declared = document.paths[template]?.[op]?.responses[String(res.status)];
  assert.ok(declared, `${method} ${template} answered ${res.status}, which the document does not list`);
  const validate = validators.for(template, op, res.status);
  if (res.headers.get('content-type')?.startsWith('application/json')) {
    assert.ok(validate, `${method} ${template} ${res.status}: JSON the document does not declare`);
    assert.ok(
      validate(res.json),
      `${method} ${template} ${res.status} does not fit the document:\n${validators.errorsText(validate)}\n${res.text}`,
    );
  }
  seen.add(`${method} ${template} ${res.status}`);
  return res.json;
}

/** The agents of this file that keep their eligibility stake locked. */
const registry: TestAgent[] = [];

async function funded(amount = FUNDS): Promise<TestAgent> {
  const agent = newAgent();
  await h().fund(agent.address, amount);
  return agent;
}

test('system, parameters, balances, deposits and eligibility', async () => {
  await answer(200, undefined, 'GET', '/health');
  await answer(200, undefined, 'GET', '/params');
  await answer(200, undefined, 'GET', '/eligibility/requirements');

  const agent = newAgent();
  const deposit = (body: unknown, headers: Record<string, string> = {}) => ({
    body,
    headers: { ...OPERATOR.headers, ...headers },
  });
  const body = { address: agent.address, asset: 'USDC', amount: BA_FUNDS.toString() };
  await answer(200, undefined, 'POST', '/operator/deposits', deposit(body, { 'Idempotency-Key': 'd-1' }));
  await answer(
    422,
    undefined,
    'POST',
    '/operator/deposits',
    deposit({ ...body, amount: '1' }, { 'Idempotency-Key': 'd-1' }),
  );
  await answer(400, undefined, 'POST', '/operator/deposits', deposit({ ...body, address: '0x12' }));
  await answer(401, undefined, 'POST', '/operator/deposits', { body });

  const balances = `/agents/${agent.address}/balances`;
  await answer(200, agent, 'GET', balances);
  await answer(403, newAgent(), 'GET', balances);
  await answer(401, undefined, 'GET', balances);
  await answer(400, agent, 'GET', '/agents/0x12/balances');

  await answer(200, agent, 'POST', '/eligibility/lock', { body: { amount: STAKE } });
  await answer(400, agent, 'POST', '/eligibility/lock', { body: { amount: '0' } });
  await answer(402, newAgent(), 'POST', '/eligibility/lock', { body: { amount: STAKE } });
  await answer(200, agent, 'POST', '/eligibility/unlock', { body: { amount: '1' } });
  await answer(200, agent, 'POST', '/eligibility/unlock', { body: {} });
});

test('create, list, read, events, the stream, and the simple messages', async () => {
  const client = await funded();
  const worker = await funded();
  const stranger = await funded();

  await answer(401, undefined, 'POST', '/contracts', { body: contractBody(worker.address) });
  await answer(400, client, 'POST', '/contracts', { body: contractBody(worker.address, { amount: 'x' }) });
  await answer(402, newAgent(), 'POST', '/contracts', { body: contractBody(worker.address) });
  await answer(413, client, 'POST', '/contracts', {
    body: contractBody(worker.address, { taskDescription: 'x'.repeat(1_100_000) }),
  });
  const body = contractBody(worker.address, { supplementaryMaterials: MATERIALS });
  const created = await answer(201, client, 'POST', '/contracts', {
    body,
    headers: { 'Idempotency-Key': 'c-1' },
  });
  await answer(422, client, 'POST', '/contracts', {
    body: { ...body, amount: '1000000' },
    headers: { 'Idempotency-Key': 'c-1' },
  });
  const id: string = created.contractId;

  await answer(200, undefined, 'GET', '/contracts');
  await answer(200, undefined, 'GET', '/contracts?status=created&limit=5');
  await answer(400, undefined, 'GET', '/contracts?status=nonsense');

  await answer(200, undefined, 'GET', `/contracts/${id}`);
  await answer(200, client, 'GET', `/contracts/${id}`);
  await answer(404, undefined, 'GET', `/contracts/${MISSING}`);
  await answer(401, client, 'GET', `/contracts/${id}`, { sign: { now: Date.now() - 600_000 } });
  await answer(200, undefined, 'GET', `/contracts/${id}/events`);
  await answer(200, client, 'GET', `/contracts/${id}/events`);
  await answer(404, undefined, 'GET', `/contracts/${MISSING}/events`);
  await answer(404, undefined, 'GET', `/contracts/${MISSING}/events/stream`);
  await answer(400, undefined, 'GET', `/contracts/${id}/events/stream`, {
    headers: { 'Last-Event-ID': 'x' },
  });

  await answer(403, client, 'GET', `/contracts/${id}/keys/materials`);
  await answer(404, worker, 'GET', `/contracts/${MISSING}/keys/materials`);
  await answer(401, undefined, 'GET', `/contracts/${id}/keys/materials`);
  await answer(404, client, 'GET', `/contracts/${id}/delivery`);

  await answer(400, worker, 'POST', `/contracts/${id}/accept`, { body: { worker: stranger.address } });
  await answer(404, worker, 'POST', `/contracts/${MISSING}/accept`);
  await answer(403, stranger, 'POST', `/contracts/${id}/accept`);
  await answer(200, worker, 'POST', `/contracts/${id}/accept`);
  await answer(409, worker, 'POST', `/contracts/${id}/accept`);
  await answer(200, worker, 'GET', `/contracts/${id}/keys/materials`);
  await answer(404, client, 'GET', `/contracts/${id}/keys/delivery`);
  await answer(403, client, 'POST', `/contracts/${id}/withdraw`);
  await answer(200, worker, 'POST', `/contracts/${id}/withdraw`);

  const declined = (await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) }))
    .contractId;
  await answer(403, client, 'POST', `/contracts/${declined}/decline`);
  await answer(200, worker, 'POST', `/contracts/${declined}/decline`);

  const cancelled = (await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) }))
    .contractId;
  await answer(403, worker, 'POST', `/contracts/${cancelled}/cancel`);
  await answer(200, client, 'POST', `/contracts/${cancelled}/cancel`);
  await answer(409, client, 'POST', `/contracts/${cancelled}/cancel`);
  // A terminal contract: the stream sends the log and ends; a client holding every event gets 204.
  const log = await answer(200, undefined, 'GET', `/contracts/${cancelled}/events`);
  await answer(200, undefined, 'GET', `/contracts/${cancelled}/events/stream`);
  await answer(204, undefined, 'GET', `/contracts/${cancelled}/events/stream`, {
    headers: { 'Last-Event-ID': String(log.events.length) },
  });
});

test('delivery, keys, content, approval', async () => {
  const client = await funded();
  const worker = await funded();
  const stranger = newAgent();
  const id = (await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) }))
    .contractId;
  await answer(403, worker, 'POST', `/contracts/${id}/deliveries`, { body: DELIVERY_REF });
  await answer(200, worker, 'POST', `/contracts/${id}/accept`);
  await answer(404, worker, 'GET', `/contracts/${id}/keys/materials`);
  await answer(400, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { ...DELIVERY_REF, sha256: 'zz' },
  });
  await answer(400, worker, 'POST', `/contracts/${id}/deliveries`, { rawBody: '{"uri":' });
  await answer(403, client, 'POST', `/contracts/${id}/deliveries`, { body: DELIVERY_REF });
  await answer(200, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { ...DELIVERY_REF, content: { text: 'done', confidence: 0.9 } },
  });
  await answer(409, worker, 'POST', `/contracts/${id}/deliveries`, { body: DELIVERY_REF });
  await answer(200, client, 'GET', `/contracts/${id}/keys/delivery`);
  await answer(403, stranger, 'GET', `/contracts/${id}/keys/delivery`);
  await answer(200, client, 'GET', `/contracts/${id}/delivery`);
  await answer(403, stranger, 'GET', `/contracts/${id}/delivery`);
  // A change request, then a redelivery.
  await answer(400, client, 'POST', `/contracts/${id}/revisions`, { body: { criteria: [] } });
  await answer(403, worker, 'POST', `/contracts/${id}/revisions`, { body: { criteria: [0] } });
  await answer(200, client, 'POST', `/contracts/${id}/revisions`, { body: { criteria: [0], note: 'redo' } });
  await answer(409, client, 'POST', `/contracts/${id}/revisions`, { body: { criteria: [0] } });
  await answer(200, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { ...DELIVERY_REF, content: { text: 'done again', confidence: 0.9 } },
  });
  await answer(200, client, 'GET', `/contracts/${id}/delivery`);
  await answer(403, worker, 'POST', `/contracts/${id}/approve`);
  await answer(200, client, 'POST', `/contracts/${id}/approve`);
  await answer(409, client, 'POST', `/contracts/${id}/approve`);
  await answer(404, client, 'GET', `/contracts/${MISSING}/delivery`);
});

test('a dispute, the votes, the vote rows', async () => {
  const client = await funded();
  const worker = await funded();
  const bas = [await funded(BA_FUNDS), await funded(BA_FUNDS), await funded(BA_FUNDS)];
  for (const ba of bas) await answer(200, ba, 'POST', '/eligibility/lock', { body: { amount: STAKE } });
  registry.push(...bas);
  const id = (await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) }))
    .contractId;
  await answer(200, worker, 'POST', `/contracts/${id}/accept`);
  await answer(200, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { ...DELIVERY_REF, content: { text: 'x' } },
  });
  await answer(409, bas[0], 'POST', `/contracts/${id}/votes`, { body: { votes: ['met', 'met'] } });
  await answer(400, client, 'POST', `/contracts/${id}/disputes`, { body: { claims: ['maybe'] } });
  await answer(403, worker, 'POST', `/contracts/${id}/disputes`, { body: {} });
  await answer(200, client, 'POST', `/contracts/${id}/disputes`, { body: { claims: ['met', 'not met'] } });
  // Seated: its free stake is 90 USDC, so 100 cannot be unlocked.
  await answer(402, bas[0], 'POST', '/eligibility/unlock', { body: { amount: STAKE } });
  await answer(200, bas[0], 'GET', `/contracts/${id}`);
  await answer(403, newAgent(), 'POST', `/contracts/${id}/votes`, { body: { votes: ['met', 'met'] } });
  await answer(400, bas[0], 'POST', `/contracts/${id}/votes`, { body: { votes: ['met'] } });
  await answer(200, bas[0], 'POST', `/contracts/${id}/votes`, { body: { votes: ['met', 'not met'] } });
  await answer(409, undefined, 'GET', `/contracts/${id}/votes`);
  await answer(200, bas[1], 'POST', `/contracts/${id}/votes`, { body: { votes: ['met', 'not met'] } });
  await answer(200, bas[2], 'POST', `/contracts/${id}/votes`, { body: { votes: ['not met', 'not met'] } });
  await answer(403, bas[0], 'POST', `/contracts/${id}/appeals`, { body: {} });
  await answer(400, client, 'POST', `/contracts/${id}/appeals`, { body: { waive: false } });
  await answer(200, client, 'POST', `/contracts/${id}/appeals`, { body: { waive: true } });
  await answer(200, worker, 'POST', `/contracts/${id}/appeals`, { body: { waive: true } });
  await eventually(
    () => answer(200, client, 'GET', `/contracts/${id}`),
    (v) => v.status.startsWith('settled-'),
  );
  await answer(200, undefined, 'GET', `/contracts/${id}/votes`);
  await answer(404, undefined, 'GET', `/contracts/${MISSING}/votes`);
  await answer(200, undefined, 'GET', `/agents/${bas[0]!.address}/votes`);
  await answer(400, undefined, 'GET', '/agents/nobody/votes');
});

test('an auction: quotes and the award', async () => {
  const client = await funded();
  const [b1, b2] = [await funded(), await funded()];
  const body = contractBody(undefined, { contractType: 'auction', amount: '5000000' });
  const id = (await answer(201, client, 'POST', '/contracts', { body })).contractId;
  const quotes = `/contracts/${id}/quotes`;
  await answer(400, b1, 'POST', quotes, { body: { price: '5000001' } });
  await answer(403, client, 'POST', quotes, { body: { price: '1000000' } });
  await answer(404, b1, 'POST', `/contracts/${MISSING}/quotes`, { body: { price: '1' } });
  await answer(201, b1, 'POST', quotes, { body: { price: '3000000', confidence: 0.8, message: 'ready' } });
  await answer(201, b2, 'POST', quotes, { body: { price: '4000000' } });
  await answer(200, b1, 'GET', `/contracts/${id}`);
  const view = await answer(200, client, 'GET', `/contracts/${id}`);
  await answer(403, b1, 'POST', `/contracts/${id}/award`, { body: {} });
  await answer(404, client, 'POST', `/contracts/${id}/award`, { body: { quoteId: 'nope' } });
  await answer(200, client, 'POST', `/contracts/${id}/award`, { body: { quoteId: view.quotes[0].quoteId } });
});

test('withdrawals and the payout queue', async () => {
  const agent = await funded();
  const path = `/agents/${agent.address}/withdrawals`;
  const body = { amount: '1000000', destination: 'eth:0x00000000000000000000000000000000000000aa' };
  await answer(400, agent, 'POST', path, { body });
  await answer(402, agent, 'POST', path, {
    body: { ...body, amount: '99000000' },
    headers: { 'Idempotency-Key': 'w-0' },
  });
  await answer(403, newAgent(), 'POST', path, { body, headers: { 'Idempotency-Key': 'w-1' } });
  const made = await answer(201, agent, 'POST', path, { body, headers: { 'Idempotency-Key': 'w-1' } });
  await answer(200, agent, 'GET', path);
  await answer(403, newAgent(), 'GET', path);
  await answer(401, undefined, 'GET', '/operator/payouts');
  await answer(200, undefined, 'GET', '/operator/payouts', OPERATOR);
  const paid = `/operator/payouts/${encodeURIComponent(made.withdrawal.id)}/paid`;
  await answer(400, undefined, 'POST', paid, { ...OPERATOR, body: { reference: '' } });
  await answer(200, undefined, 'POST', paid, { ...OPERATOR, body: { reference: 'tx-1' } });
  await answer(404, undefined, 'POST', '/operator/payouts/nope/paid', {
    ...OPERATOR,
    body: { reference: 'x' },
  });
});

test('a contract waiting for the operator, and stranded holds', async () => {
  const asOperator = (key: string, body?: Json): CallOptions => ({
    ...(body === undefined ? {} : { body }),
    headers: { ...OPERATOR.headers, 'Idempotency-Key': key },
  });
  await answer(401, undefined, 'GET', '/operator/stuck-holds');
  await answer(200, undefined, 'GET', '/operator/stuck-holds', OPERATOR);
  await answer(401, undefined, 'POST', '/operator/stuck-holds/release', {
    headers: { 'Idempotency-Key': 's-0' },
  });
  await answer(200, undefined, 'POST', '/operator/stuck-holds/release', asOperator('s-1'));
  const client = await funded();
  const worker = await funded();
  const id = (await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) }))
    .contractId;
  const resolve = `/operator/contracts/${id}/resolve`;
  await answer(409, undefined, 'POST', resolve, asOperator('r-1', { action: 'retry' }));
  await answer(400, undefined, 'POST', resolve, asOperator('r-2', { action: 'undo' }));
  await answer(200, worker, 'POST', `/contracts/${id}/accept`);
  await answer(200, worker, 'POST', `/contracts/${id}/deliveries`, { body: DELIVERY_REF });
  // The Worker's stake hold voided behind the workflow's back: the settlement is refused, the contract waits.
  await h().ledger.voidHold({ id: `corrupt:${id}`, holdId: `${id}:stake:${worker.address}` });
  const approval = call(h().app, client, 'POST', `/contracts/${id}/approve`);
  const handle = h().env.client.workflow.getHandle(`contract-${id}`);
  await eventually(
    async () => ({ flagged: (await handle.describe()).typedSearchAttributes.get(needsOperatorKey) ?? false }),
    (v) => v.flagged === true,
  );
  const released = await answer(200, undefined, 'POST', resolve, asOperator('r-3', { action: 'release' }));
  assert.equal(released.status, 'cancelled-by-operator');
  await approval;
});

test('an agent’s contracts, feed, feed stream and webhooks', async () => {
  const client = await funded();
  const worker = newAgent();
  await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) });
  const mine = `/agents/${worker.address}`;
  const listed = await eventually(
    () => answer(200, worker, 'GET', `${mine}/contracts`),
    (page: Json) => page.contracts.length === 1,
  );
  assert.equal(listed.contracts[0].nextAction, 'accept');
  await answer(200, worker, 'GET', `${mine}/contracts?role=worker&open=true&limit=5`);
  await answer(400, worker, 'GET', `${mine}/contracts?cursor=x`);
  await answer(403, client, 'GET', `${mine}/contracts`);
  await answer(401, undefined, 'GET', `${mine}/contracts`);
  const feed = await answer(200, worker, 'GET', `${mine}/feed?after=0&limit=10`);
  assert.ok(feed.entries.some((e: Json) => e.type === 'agent.named'));
  await answer(400, worker, 'GET', `${mine}/feed?after=-1`);
  await answer(403, client, 'GET', `${mine}/feed`);
  await answer(401, undefined, 'GET', `${mine}/feed`);
  await answer(400, worker, 'GET', `${mine}/feed/stream`, { headers: { 'Last-Event-ID': 'x' } });
  await answer(403, client, 'GET', `${mine}/feed/stream`);
  await answer(401, undefined, 'GET', `${mine}/feed/stream`);
  // The open stream never ends by itself: its head is checked, then it is dropped.
  const streamPath = `${mine}/feed/stream`;
  const aborted = new AbortController();
  const stream = await h().app.request(streamPath, {
    headers: { ...signRequest({ method: 'GET', url: streamPath, privateKey: worker.key }) },
    signal: aborted.signal,
  });
  assert.equal(stream.status, 200);
  assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
  aborted.abort();
  await stream.body?.cancel().catch(() => undefined);
  seen.add('GET /agents/{address}/feed/stream 200');

  const created = await answer(201, worker, 'POST', `${mine}/webhooks`, {
    body: { url: 'https://93.184.215.14/hook' },
  });
  await answer(400, worker, 'POST', `${mine}/webhooks`, { body: { url: 'https://127.0.0.1/hook' } });
  await answer(400, worker, 'POST', `${mine}/webhooks`, { body: { url: 'https://x.example/h', extra: 1 } });
  await answer(403, client, 'POST', `${mine}/webhooks`, { body: { url: 'https://93.184.215.14/hook' } });
  await answer(401, undefined, 'POST', `${mine}/webhooks`, { body: { url: 'https://93.184.215.14/hook' } });
  await answer(200, worker, 'GET', `${mine}/webhooks`);
  await answer(403, client, 'GET', `${mine}/webhooks`);
  await answer(401, undefined, 'GET', `${mine}/webhooks`);
  await answer(403, client, 'DELETE', `${mine}/webhooks/${created.id}`);
  await answer(200, worker, 'DELETE', `${mine}/webhooks/${created.id}`);
  await answer(404, worker, 'DELETE', `${mine}/webhooks/${created.id}`);
  await answer(401, undefined, 'DELETE', `${mine}/webhooks/${created.id}`);
});

test('an appeal without a seatable panel goes to the trusted arbiter; its verdicts settle it', async () => {
  const OPERATOR: CallOptions = { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } };
  // The dispute test's panel lost slices: each tops its stake up to stay drawable.
  for (const ba of registry)
    await answer(200, ba, 'POST', '/eligibility/lock', { body: { amount: '10000000' } });
  const client = await funded();
  const worker = await funded();
  const id = (
    await answer(201, client, 'POST', '/contracts', {
      body: contractBody(worker.address, { verificationMode: 'standard', acceptanceCriteria: ['a'] }),
    })
  ).contractId;
  await answer(200, worker, 'POST', `/contracts/${id}/accept`);
  const delivered = await answer(200, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { ...DELIVERY_REF, content: { text: 'x' } },
  });
  const panel = delivered.backupAgents as string[];
  const verdicts = `/operator/contracts/${id}/verdicts`;
  await answer(409, undefined, 'POST', verdicts, { ...OPERATOR, body: { verdicts: ['met'] } });
  await answer(401, undefined, 'POST', verdicts, { body: { verdicts: ['met'] } });
  await answer(400, undefined, 'POST', verdicts, { ...OPERATOR, body: { verdicts: ['unclear'] } });
  // The only eligible agents of this deployment are the dispute test's three: they are the panel.
  assert.deepEqual([...panel].sort(), registry.map((a) => a.address).sort());
  for (const ba of registry)
    await answer(200, ba, 'POST', `/contracts/${id}/votes`, { body: { votes: ['not met'] } });
  await eventually(
    () => answer(200, client, 'GET', `/contracts/${id}`),
    (v) => v.status === 'resolved',
  );
  // Too few agents outside the first panel for an appeal panel of five: the arbiter decides.
  await answer(200, worker, 'POST', `/contracts/${id}/appeals`, { body: {} });
  await eventually(
    () => answer(200, client, 'GET', `/contracts/${id}`),
    (v) => v.awaitingArbiter === true,
  );
  const settled = await answer(200, undefined, 'POST', verdicts, {
    ...OPERATOR,
    body: { verdicts: ['met'] },
  });
  assert.equal(settled.status, 'settled-fully-met');
});

test('an owner’s mandates', async () => {
  const owner = await funded();
  const delegate = newAgent();
  const mine = `/agents/${owner.address}/mandates`;
  const body = {
    delegate: delegate.address,
    limits: { perContract: '1000', total: '2000', perDay: '3000', roles: ['client'] },
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  };
  const granted = await answer(201, owner, 'POST', mine, { body });
  await answer(400, owner, 'POST', mine, { body: { ...body, limits: { ...body.limits, total: '0' } } });
  await answer(403, delegate, 'POST', mine, { body });
  await answer(409, owner, 'POST', mine, { body });
  await answer(200, owner, 'GET', mine);
  await answer(403, delegate, 'GET', mine);
  await answer(403, owner, 'DELETE', `/agents/${delegate.address}/mandates/${granted.id}`);
  await answer(200, owner, 'DELETE', `${mine}/${granted.id}`);
  await answer(404, owner, 'DELETE', `${mine}/m-missing`);
});

test('the outcome log, its head, and an agent’s reputation', async () => {
  const client = await funded();
  const worker = await funded();
  const id = (await answer(201, client, 'POST', '/contracts', { body: contractBody(worker.address) }))
    .contractId;
  await answer(200, worker, 'POST', `/contracts/${id}/accept`);
  await answer(200, worker, 'POST', `/contracts/${id}/deliveries`, {
    body: { ...DELIVERY_REF, content: { text: 'x' } },
  });
  await answer(200, client, 'POST', `/contracts/${id}/approve`);
  const page = await eventually(
    () => answer(200, undefined, 'GET', '/outcomes?after=0&limit=1000'),
    (p: Json) => (p.records as { contractId: string }[]).some((r) => r.contractId === id),
  );
  assert.ok(page.records.length > 0);
  const head = await answer(200, undefined, 'GET', '/outcomes/head');
  assert.ok(head.sequence >= page.records.length);
  await answer(400, undefined, 'GET', '/outcomes?limit=0');
  const unsigned = await answer(200, undefined, 'GET', `/agents/${worker.address}/reputation`);
  assert.equal(unsigned.trust.score, null);
  const signed = await answer(200, client, 'GET', `/agents/${worker.address}/reputation`);
  assert.equal(signed.trust.viewer, client.address);
  await answer(400, undefined, 'GET', `/agents/${worker.address}/reputation?viewer=0x12`);
});

test('every documented operation was answered with its success and, if it lists one, a refusal', () => {
  const missing: string[] = [];
  for (const [path, ops] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const statuses = Object.keys(op.responses).map(Number);
      const answered = statuses.filter((s) => seen.has(`${method.toUpperCase()} ${path} ${s}`));
      if (!answered.some((s) => s < 300)) missing.push(`${method.toUpperCase()} ${path}: no success`);
      // Every route lists 429; these apps run without rate limits (test/hostile/rate-limits.test.ts).
      const refusal = (s: number) => s >= 400 && s < 500 && s !== 429;
      if (statuses.some(refusal) && !answered.some(refusal)) {
        missing.push(`${method.toUpperCase()} ${path}: no refusal`);
      }
    }
  }
  assert.deepEqual(missing, []);
});
