// A keyed create retried after its escrow was held. The Client is funded for
// exactly one contract; the first attempt created it but its saved answer is gone (kept 24 h, or
// never saved after a 5xx), so the retry reaches the handler, whose balance check sees the escrow
// held. The retry must find its contract: the same answer, no 402, nothing held twice.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractIdForKey } from '../../api/contracts/ids';
import { SqliteIdempotencyStore } from '../../store/idempotency/sqlite';
import { useAppHarness } from '../support/service';
import { call } from '../api/support';
import { appBeside, type SideApp } from './side-app';
import { contractBody, DAY, HOUR, newAgent, PRICE } from '../support/fixtures';

const h = useAppHarness();

let clockOffset = 0;
const dir = mkdtempSync(join(tmpdir(), 'oc-keyed-'));
// The saved answers' clock only: a day later they are pruned, as in production.
const idempotency = new SqliteIdempotencyStore(join(dir, 'idempotency.sqlite'), {
  now: () => Date.now() + clockOffset,
});
let side: SideApp | undefined;
const app = () => (side ??= appBeside(h(), { idempotency })).app;

after(() => {
  side?.close();
  idempotency.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a keyed create retried after its saved answer is gone answers its contract, not 402', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, PRICE);
  const body = contractBody(worker.address);
  const headers = { 'Idempotency-Key': 'exactly-one' };

  const first = await call(app(), client, 'POST', '/contracts', { body, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.json.contractId, contractIdForKey(client.address, 'exactly-one'));
  const held = await h().balances(client.address);
  assert.deepEqual([held.USDC.available, held.USDC.held], [0n, PRICE]);

  clockOffset = DAY + HOUR;
  const retry = await call(app(), client, 'POST', '/contracts', { body, headers });
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.headers.get('Idempotent-Replayed'), null, 'the retry reached the handler');
  assert.equal(retry.json.contractId, first.json.contractId);
  assert.equal(retry.json.status, 'created');
  assert.equal(retry.json.client, first.json.client);

  const after = await h().balances(client.address);
  assert.deepEqual([after.USDC.available, after.USDC.held], [0n, PRICE]);
  const holds = await h().ledger.holdsOf(`agent:${client.address.toLowerCase()}` as `agent:0x${string}`, {
    open: true,
  });
  assert.equal(holds.length, 1);

  // The honest flow goes on: the Client cancels its contract and gets the whole escrow back.
  const cancelled = await call(app(), client, 'POST', `/contracts/${first.json.contractId}/cancel`, {
    body: {},
  });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.json.status, 'cancelled-by-client');
  const end = await h().balances(client.address);
  assert.deepEqual([end.USDC.available, end.USDC.held], [PRICE, 0n]);
});

test('another key of the same underfunded Client is still 402, nothing created', async () => {
  const client = newAgent();
  await h().fund(client.address, PRICE - 1n);
  const res = await call(app(), client, 'POST', '/contracts', {
    body: contractBody(newAgent().address),
    headers: { 'Idempotency-Key': 'too-poor' },
  });
  assert.equal(res.status, 402, res.text);
  const { USDC } = await h().balances(client.address);
  assert.deepEqual([USDC.available, USDC.held], [PRICE - 1n, 0n]);
});
