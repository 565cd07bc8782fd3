// POST /contracts through app.request() on real parts: every creation rule of docs/protocol.md §3 broken once →
// 400 naming the field, nothing created and nothing held; 402 without funds; Idempotency-Key.
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/common';
import { before, describe, test } from 'node:test';
import { contractIdForKey } from '../../api/contracts/ids';
import { contractWorkflowId } from '../../workflows/definitions';
import { useAppHarness } from '../support/service';
import { call } from './support';
import { contractBody, FUNDS, HOUR, newAgent } from '../support/fixtures';

const h = useAppHarness();

// One instant for every deadline: two clock reads for "equal" deadlines could differ by a millisecond.
const NOW = Date.now();
const at = (hours: number) => new Date(NOW + hours * HOUR).toISOString();

async function assertNothingHeld(address: string): Promise<void> {
  const { USDC } = await h().balances(address);
  assert.deepEqual([USDC.available, USDC.held], [FUNDS, 0n]);
}

async function assertNoWorkflow(contractId: string): Promise<void> {
  await assert.rejects(
    h().env.client.workflow.getHandle(contractWorkflowId(contractId)).describe(),
    WorkflowNotFoundError,
  );
}

describe('every creation rule broken once → 400 naming the field, nothing created, no hold', () => {
  const client = newAgent();
  const worker = newAgent();
  before(async () => {
    await h().fund(client.address, FUNDS);
  });

  const cases: Array<[string, () => Record<string, unknown>, string]> = [
    ['no criteria', () => contractBody(worker.address, { acceptanceCriteria: [] }), 'acceptanceCriteria'],
    [
      'eleven criteria',
      () =>
        contractBody(worker.address, { acceptanceCriteria: Array.from({ length: 11 }, (_, i) => `c${i}`) }),
      'acceptanceCriteria',
    ],
    [
      'an empty criterion',
      () => contractBody(worker.address, { acceptanceCriteria: ['fine', '   '] }),
      'acceptanceCriteria.1',
    ],
    [
      'match deadline in the past',
      () =>
        contractBody(worker.address, {
          deadlines: { match: at(-1), withdrawal: at(2), delivery: at(3), review: at(4) },
        }),
      'deadlines.match',
    ],
    [
      'withdrawal before match',
      () =>
        contractBody(worker.address, {
          deadlines: { match: at(2), withdrawal: at(1), delivery: at(3), review: at(4) },
        }),
      'deadlines.withdrawal',
    ],
    [
      'delivery not after withdrawal',
      () =>
        contractBody(worker.address, {
          deadlines: { match: at(1), withdrawal: at(2), delivery: at(2), review: at(4) },
        }),
      'deadlines.delivery',
    ],
    [
      'review not after delivery',
      () =>
        contractBody(worker.address, {
          deadlines: { match: at(1), withdrawal: at(2), delivery: at(3), review: at(3) },
        }),
      'deadlines.review',
    ],
    [
      'no review in privacy-preserving mode',
      () => contractBody(worker.address, { deadlines: { match: at(1), withdrawal: at(2), delivery: at(3) } }),
      'deadlines.review',
    ],
    [
      'direct award without a Worker',
      () => ({ ...contractBody(worker.address), worker: undefined }),
      'worker',
    ],
    ['open tender naming a Worker', () => contractBody(undefined, { worker: worker.address }), 'worker'],
    [
      'auction with direct award',
      () => contractBody(worker.address, { contractType: 'auction' }),
      'awardMethod',
    ],
    ['the Client as its own Worker', () => contractBody(client.address), 'worker'],
    ['a field the caller does not own', () => contractBody(worker.address, { status: 'matched' }), 'status'],
    ['a decimal amount', () => contractBody(worker.address, { amount: '2.5' }), 'amount'],
    ['a zero amount', () => contractBody(worker.address, { amount: '0' }), 'amount'],
    [
      'an unknown verification mode',
      () => contractBody(worker.address, { verificationMode: 'lenient' }),
      'verificationMode',
    ],
  ];

  // Milestones (docs/protocol.md §3 "Milestones"): each broken rule names its field under `milestones`.
  const plan = (edit: (m: Record<string, unknown>[]) => void = () => {}) => {
    const milestones: Record<string, unknown>[] = [
      {
        title: 'one',
        acceptanceCriteria: ['a'],
        shareBps: 4000,
        deadlines: { delivery: at(3), review: at(4) },
      },
      {
        title: 'two',
        acceptanceCriteria: ['b'],
        shareBps: 6000,
        deadlines: { delivery: at(5), review: at(6) },
      },
    ];
    edit(milestones);
    return {
      ...contractBody(worker.address, { deadlines: { match: at(1), withdrawal: at(2) }, milestones }),
      acceptanceCriteria: undefined,
    };
  };
  cases.push(
    ['one milestone', () => plan((m) => m.splice(1, 1)), 'milestones'],
    ['milestone shares not summing to 10000', () => plan((m) => (m[1]!.shareBps = 5000)), 'milestones'],
    [
      'a milestone delivered before the previous review',
      () => plan((m) => (m[1]!.deadlines = { delivery: at(3.5), review: at(6) })),
      'milestones.1.deadlines.delivery',
    ],
    [
      'a milestone without a review in privacy-preserving mode',
      () => plan((m) => (m[0]!.deadlines = { delivery: at(3) })),
      'milestones.0.deadlines.review',
    ],
    [
      'a milestone without criteria',
      () => plan((m) => (m[0]!.acceptanceCriteria = [])),
      'milestones.0.acceptanceCriteria',
    ],
    [
      'contract criteria beside milestones',
      () => ({ ...plan(), acceptanceCriteria: ['c'] }),
      'acceptanceCriteria',
    ],
    [
      'a contract delivery deadline other than the last milestone’s',
      () => ({ ...plan(), deadlines: { match: at(1), withdrawal: at(2), delivery: at(7) } }),
      'deadlines.delivery',
    ],
  );

  for (const [name, body, field] of cases) {
    test(name, async () => {
      const key = `bad-${name.replaceAll(/[^a-z0-9]+/gi, '-')}`;
      const res = await call(h().app, client, 'POST', '/contracts', {
        body: body(),
        headers: { 'Idempotency-Key': key },
      });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.error.code, 'invalid_input', res.text);
      assert.match(res.json.error.message, new RegExp(field.replaceAll('.', '\\.')));
      assert.ok(
        res.json.error.details.fields.some((f: { field: string }) => f.field === field),
        JSON.stringify(res.json.error.details),
      );
      await assertNothingHeld(client.address);
      await assertNoWorkflow(contractIdForKey(client.address, key));
    });
  }

  test('malformed JSON → 400', async () => {
    const res = await call(h().app, client, 'POST', '/contracts', { rawBody: '{"contractType": ' });
    assert.equal(res.status, 400);
    await assertNothingHeld(client.address);
  });

  test('no body at all → 400 naming the missing fields', async () => {
    const res = await call(h().app, client, 'POST', '/contracts');
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.error.code, 'invalid_input', res.text);
    assert.ok(
      res.json.error.details.fields.some((f: { field: string }) => f.field === 'contractType'),
      res.text,
    );
    await assertNothingHeld(client.address);
  });
});

test('402 when the Client cannot fund the escrow: no workflow, no hold', async () => {
  const poor = newAgent();
  await h().fund(poor.address, 2_499_999n);
  const res = await call(h().app, poor, 'POST', '/contracts', {
    body: contractBody(newAgent().address),
    headers: { 'Idempotency-Key': 'poor-1' },
  });
  assert.equal(res.status, 402, res.text);
  assert.equal(res.json.error.code, 'insufficient_funds');
  const { USDC } = await h().balances(poor.address);
  assert.deepEqual([USDC.available, USDC.held], [2_499_999n, 0n]);
  await assertNoWorkflow(contractIdForKey(poor.address, 'poor-1'));
});

test('Idempotency-Key: a repeat returns the same contract, never a second one; another body is 422', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  const body = contractBody(worker.address);
  const first = await call(h().app, client, 'POST', '/contracts', {
    body,
    headers: { 'Idempotency-Key': 'create-1' },
  });
  assert.equal(first.status, 201, first.text);
  const again = await call(h().app, client, 'POST', '/contracts', {
    body,
    headers: { 'Idempotency-Key': 'create-1' },
  });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
  assert.equal(again.json.contractId, first.json.contractId);
  const other = await call(h().app, client, 'POST', '/contracts', {
    body: { ...body, amount: '1000000' },
    headers: { 'Idempotency-Key': 'create-1' },
  });
  assert.equal(other.status, 422);
  assert.equal(other.json.error.code, 'idempotency_key_reused');
  const { USDC } = await h().balances(client.address);
  assert.deepEqual([USDC.available, USDC.held], [FUNDS - 2_500_000n, 2_500_000n]);
  assert.equal(
    (await h().ledger.holdsOf(`agent:${client.address}` as `agent:0x${string}`, { open: true })).length,
    1,
  );
});

test('a contract with milestones: 201, the escrow held in full, every milestone in the view', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  const milestones = [1, 2, 3].map((i) => ({
    title: `part ${i}`,
    acceptanceCriteria: [`criterion ${i}`],
    shareBps: i === 3 ? 3334 : 3333,
    deadlines: { delivery: at(1 + 2 * i), review: at(2 + 2 * i) },
  }));
  const body = {
    ...contractBody(worker.address, { deadlines: { match: at(1), withdrawal: at(2) }, milestones }),
    acceptanceCriteria: undefined,
  };
  const res = await call(h().app, client, 'POST', '/contracts', { body });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.json.currentMilestone, 0);
  assert.deepEqual(
    res.json.milestones.map((m: { status: string; amount: string }) => [m.status, m.amount]),
    [
      ['created', '833250'],
      ['pending', '833250'],
      ['pending', '833500'],
    ],
  );
  assert.deepEqual(res.json.acceptanceCriteria, [{ text: 'criterion 1' }]);
  assert.equal(res.json.deadlines.delivery, new Date(Date.parse(at(3))).toISOString());
  const { USDC } = await h().balances(client.address);
  assert.deepEqual([USDC.available, USDC.held], [FUNDS - 2_500_000n, 2_500_000n]);
  const stranger = await call(h().app, newAgent(), 'GET', `/contracts/${res.json.contractId}`);
  assert.equal(stranger.json.view, 'public');
  assert.equal(stranger.json.milestones.length, 3);
  assert.equal(stranger.json.milestones[0].criteriaMet, null);
});

test('a created contract: 201 with the Client’s view; defaults; materials ref without its key', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  const body = contractBody(worker.address, {
    supplementaryMaterials: {
      uri: 'https://x.example/m.enc',
      sha256: 'AB'.repeat(32),
      key: 'the-materials-key',
    },
  });
  const res = await call(h().app, client, 'POST', '/contracts', { body });
  assert.equal(res.status, 201, res.text);
  assert.match(res.json.contractId, /^c-[a-z2-7]{26}$/);
  assert.equal(res.json.view, 'party');
  assert.equal(res.json.role, 'client');
  assert.equal(res.json.status, 'created');
  assert.equal(res.json.contractCode, 'FDP');
  assert.equal(res.json.verificationMode, 'privacy-preserving');
  assert.equal(res.json.client, client.address);
  assert.equal(res.json.worker, worker.address);
  assert.equal(res.json.escrowedFunds, '2500000');
  assert.deepEqual(res.json.materials, { uri: 'https://x.example/m.enc', sha256: 'ab'.repeat(32) });
  assert.ok(!res.text.includes('the-materials-key'));
  assert.equal(await h().vault.get(res.json.contractId, 'materials'), 'the-materials-key');
});
