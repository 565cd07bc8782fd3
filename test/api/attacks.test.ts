// Attacks on signed routes (docs/security.md): each refused, and nothing changed — the contract's status,
// every balance and the vault are as before.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signRequest } from '../../sdk/typescript/signer';
import { startAppHarness, type AppHarness } from '../support/service';
import { call, type Json } from './support';
import { contractBody, FUNDS, newAgent, type TestAgent } from '../support/fixtures';

let h: AppHarness;
const client = newAgent();
const worker = newAgent();
const stranger = newAgent();
let id: string;

before(async () => {
  h = await startAppHarness();
  for (const a of [client, worker, stranger]) await h.fund(a.address, FUNDS);
  const body = contractBody(worker.address, {
    supplementaryMaterials: { uri: 'https://x.example/m.enc', sha256: 'ab'.repeat(32), key: 'materials-key' },
  });
  const created = await call(h.app, client, 'POST', '/contracts', { body });
  assert.equal(created.status, 201, created.text);
  id = created.json.contractId;
});
after(async () => {
  await h?.close();
});

async function snapshot() {
  const view = await call(h.app, client, 'GET', `/contracts/${id}`);
  const balances = await Promise.all([client, worker, stranger].map((a) => h.balances(a.address)));
  return { status: view.json.status, worker: view.json.worker, delivery: view.json.delivery, balances };
}

async function refusedWithoutChange(
  send: () => Promise<{ status: number; json: Json; text: string }>,
  status: number,
  reason?: string,
): Promise<void> {
  const before = await snapshot();
  const res = await send();
  assert.equal(res.status, status, res.text);
  if (reason !== undefined) assert.equal(res.json.error.details.reason, reason);
  assert.deepEqual(await snapshot(), before);
}

const acceptPath = () => `/contracts/${id}/accept`;

test('unsigned → 401', () =>
  refusedWithoutChange(
    () => call(h.app, worker, 'POST', acceptPath(), { unsigned: true }),
    401,
    'missing_headers',
  ));

test('a signature by another key than keyid → 401', async () => {
  const forged = signRequest({ method: 'POST', url: acceptPath(), privateKey: stranger.key });
  const real = signRequest({ method: 'POST', url: acceptPath(), privateKey: worker.key });
  await refusedWithoutChange(
    () =>
      call(h.app, worker, 'POST', acceptPath(), {
        unsigned: true,
        headers: { 'Signature-Input': real['Signature-Input'], Signature: forged.Signature },
      }),
    401,
    'keyid_mismatch',
  );
});

test('expired → 401', () =>
  refusedWithoutChange(
    () => call(h.app, worker, 'POST', acceptPath(), { sign: { now: Date.now() - 120_000 } }),
    401,
    'expired',
  ));

test('from the future → 401', () =>
  refusedWithoutChange(
    () => call(h.app, worker, 'POST', acceptPath(), { sign: { now: Date.now() + 120_000 } }),
    401,
    'created_in_future',
  ));

test('a body moved to another path → 401', async () => {
  const signedForDecline = signRequest({
    method: 'POST',
    url: `/contracts/${id}/decline`,
    privateKey: worker.key,
  });
  await refusedWithoutChange(
    () => call(h.app, worker, 'POST', acceptPath(), { unsigned: true, headers: { ...signedForDecline } }),
    401,
    'keyid_mismatch',
  );
});

test('wrong role: the Client accepts, a stranger cancels, a stranger declines → 403', async () => {
  await refusedWithoutChange(() => call(h.app, client, 'POST', acceptPath()), 403);
  await refusedWithoutChange(() => call(h.app, stranger, 'POST', `/contracts/${id}/cancel`), 403);
  await refusedWithoutChange(() => call(h.app, stranger, 'POST', `/contracts/${id}/decline`), 403);
});

test('a caller may not set fields it does not own on a message → 400', () =>
  refusedWithoutChange(
    () => call(h.app, worker, 'POST', acceptPath(), { body: { worker: stranger.address } }),
    400,
  ));

test('a stranger reading keys or balances → 403; the named Worker before accepting → 403', async () => {
  for (const [who, path] of [
    [stranger, `/contracts/${id}/keys/materials`],
    [stranger, `/contracts/${id}/keys/delivery`],
    [worker, `/contracts/${id}/keys/materials`],
    [client, `/contracts/${id}/keys/materials`],
    [stranger, `/agents/${worker.address}/balances`],
  ] as Array<[TestAgent, string]>) {
    const res = await call(h.app, who, 'GET', path);
    assert.equal(res.status, 403, `${path}: ${res.text}`);
    assert.ok(!res.text.includes('materials-key'));
  }
  const unsigned = await call(h.app, undefined, 'GET', `/contracts/${id}/keys/materials`);
  assert.equal(unsigned.status, 401);
});

test('replayed request (reused nonce) → 401, the first one counted once', async () => {
  const path = acceptPath();
  const headers = signRequest({ method: 'POST', url: path, privateKey: worker.key });
  const first = await call(h.app, worker, 'POST', path, { unsigned: true, headers: { ...headers } });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json.status, 'matched');
  await refusedWithoutChange(
    () => call(h.app, worker, 'POST', path, { unsigned: true, headers: { ...headers } }),
    401,
    'nonce_reused',
  );
  const { USDC } = await h.balances(worker.address);
  assert.deepEqual([USDC.available, USDC.held], [FUNDS - 250_000n, 250_000n]);
});

test('tampered delivery body → 401, no key stored; the Worker reads the materials key once matched', async () => {
  const path = `/contracts/${id}/deliveries`;
  const body = JSON.stringify({
    uri: 'https://x.example/d.enc',
    sha256: 'cd'.repeat(32),
    key: 'delivery-key',
  });
  const headers = signRequest({ method: 'POST', url: path, body, privateKey: worker.key });
  const tampered = body.replace('delivery-key', 'evil-key');
  await refusedWithoutChange(
    () => call(h.app, worker, 'POST', path, { unsigned: true, rawBody: tampered, headers: { ...headers } }),
    401,
    'digest_mismatch',
  );
  assert.equal(await h.vault.get(id, 'delivery'), undefined);
  const materials = await call(h.app, worker, 'GET', `/contracts/${id}/keys/materials`);
  assert.equal(materials.status, 200);
  assert.equal(materials.json.key, 'materials-key');
});

test('a stranger delivering → 403 and its key never reaches the vault', async () => {
  const body = { uri: 'https://x.example/d.enc', sha256: 'cd'.repeat(32), key: 'stranger-key' };
  await refusedWithoutChange(
    () => call(h.app, stranger, 'POST', `/contracts/${id}/deliveries`, { body }),
    403,
  );
  assert.equal(await h.vault.get(id, 'delivery'), undefined);
});
