import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentOwner, openLedger } from '../../store/ledger';
import type { HoldKind, Ledger, LedgerError, LedgerErrorCode, LedgerOp, Owner } from '../../store/ledger';
import { describeEachStore } from './stores';

const alice = agentOwner('0x' + 'a1'.repeat(20));
const bob = agentOwner('0x' + 'b2'.repeat(20));
const carol = agentOwner('0x' + 'C3'.repeat(20)); // mixed case in, lowercase out

async function rejectsWith(
  promise: Promise<unknown>,
  code: LedgerErrorCode,
  match?: RegExp,
): Promise<LedgerError> {
  let caught: unknown;
  await promise.then(
    () => assert.fail(`expected ${code}, got success`),
    (error: unknown) => (caught = error),
  );
  const error = caught as LedgerError;
  assert.equal(error.code, code, `expected ${code}, got ${String(caught)}`);
  if (match) assert.match(error.message, match);
  return error;
}

async function usdc(ledger: Ledger, owner: Parameters<Ledger['balances']>[0]) {
  return (await ledger.balances(owner)).USDC;
}

/** Deposits `funds` USDC to `owner` (operation 'd1'), then holds part of it for contract c1. */
async function depositAndHold(
  ledger: Ledger,
  owner: Owner,
  funds: bigint,
  hold: { id: string; amount: bigint; holdKind: HoldKind },
): Promise<void> {
  await ledger.deposit({ id: 'd1', asset: 'USDC', to: owner, amount: funds });
  await ledger.hold({ ...hold, owner, asset: 'USDC', contractId: 'c1' });
}

describeEachStore('ledger', (store) => {
  test('a deposit credits the agent and debits the USDC mint; balances sum to zero', async () => {
    const { ledger } = await store.fresh();
    const result = await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 2_500_000n });
    assert.deepEqual(result, { id: 'd1', kind: 'deposit', replayed: false });
    assert.deepEqual(await ledger.balances(alice), {
      USDC: { available: 2_500_000n, held: 0n },
      OCT: { available: 0n, held: 0n },
    });
    const report = await ledger.audit();
    assert.deepEqual(report.assets.USDC, { sum: 0n, mint: -2_500_000n });
    assert.equal(report.transfers, 1);
  });

  test('the same id with the same fields replays and moves nothing; with other fields it is refused', async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n });
    assert.deepEqual(await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n }), {
      id: 'd1',
      kind: 'deposit',
      replayed: true,
    });
    await rejectsWith(
      ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 101n }),
      'IdempotencyConflict',
      /d1/,
    );
    await rejectsWith(
      ledger.transfer({ id: 'd1', asset: 'USDC', from: alice, to: bob, amount: 1n }),
      'IdempotencyConflict',
    );
    assert.equal((await usdc(ledger, alice)).available, 100n);
    assert.equal((await ledger.audit()).transfers, 1);
  });

  test('insufficient funds is a named error that changes nothing and does not use up the id', async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 50n });
    const error = await rejectsWith(
      ledger.transfer({ id: 't1', asset: 'USDC', from: alice, to: bob, amount: 51n }),
      'InsufficientFunds',
    );
    assert.equal(error.name, 'InsufficientFundsError');
    assert.deepEqual(error.details, { owner: alice, asset: 'USDC', needed: '51', available: '50' });
    assert.equal((await usdc(ledger, bob)).available, 0n);
    await ledger.deposit({ id: 'd2', asset: 'USDC', to: alice, amount: 1n });
    await ledger.transfer({ id: 't1', asset: 'USDC', from: alice, to: bob, amount: 51n });
    assert.deepEqual(await usdc(ledger, alice), { available: 0n, held: 0n });
    assert.deepEqual(await usdc(ledger, bob), { available: 51n, held: 0n });
  });

  test('a hold reserves available funds, which then cannot be spent; it needs available funds', async () => {
    const { ledger } = await store.fresh();
    await depositAndHold(ledger, alice, 1000n, { id: 'c1:escrow', amount: 700n, holdKind: 'escrow' });
    assert.deepEqual(await usdc(ledger, alice), { available: 300n, held: 700n });
    await rejectsWith(
      ledger.transfer({ id: 't1', asset: 'USDC', from: alice, to: bob, amount: 301n }),
      'InsufficientFunds',
    );
    await rejectsWith(
      ledger.hold({
        id: 'c2:escrow',
        owner: alice,
        asset: 'USDC',
        amount: 301n,
        holdKind: 'escrow',
        contractId: 'c2',
      }),
      'InsufficientFunds',
    );
    await rejectsWith(
      ledger.withdraw({ id: 'w1', asset: 'USDC', from: alice, amount: 301n }),
      'InsufficientFunds',
    );
    await ledger.withdraw({ id: 'w2', asset: 'USDC', from: alice, amount: 300n });
    assert.deepEqual(await usdc(ledger, alice), { available: 0n, held: 700n });
    assert.equal((await ledger.audit()).assets.USDC.mint, -700n);
  });

  test('a hold resolves once, in parts to several recipients; a part to the owner is a release', async () => {
    const { ledger } = await store.fresh();
    await depositAndHold(ledger, alice, 1000n, { id: 'c1:escrow', amount: 1000n, holdKind: 'escrow' });
    await rejectsWith(
      ledger.resolve({ id: 'r0', holdId: 'c1:escrow', parts: [{ to: bob, amount: 999n }] }),
      'PartsMismatch',
      /sum to 999, the hold is 1000/,
    );
    const parts = [
      { to: bob, amount: 600n },
      { to: 'treasury' as const, amount: 150n },
      { to: alice, amount: 250n },
      { to: carol, amount: 0n },
    ];
    await ledger.resolve({ id: 'c1:settle:0', holdId: 'c1:escrow', parts });
    assert.deepEqual(await usdc(ledger, alice), { available: 250n, held: 0n });
    assert.deepEqual(await usdc(ledger, bob), { available: 600n, held: 0n });
    assert.deepEqual(await usdc(ledger, 'treasury'), { available: 150n, held: 0n });
    assert.equal((await ledger.resolve({ id: 'c1:settle:0', holdId: 'c1:escrow', parts })).replayed, true);
    await rejectsWith(
      ledger.resolve({ id: 'c1:settle:again', holdId: 'c1:escrow', parts: [{ to: bob, amount: 1000n }] }),
      'HoldAlreadyResolved',
      /c1:settle:0/,
    );
    await rejectsWith(ledger.voidHold({ id: 'v1', holdId: 'c1:escrow' }), 'HoldAlreadyResolved');
    await rejectsWith(ledger.voidHold({ id: 'v2', holdId: 'no-such-hold' }), 'HoldNotFound');
    const hold = await ledger.getHold('c1:escrow');
    assert.deepEqual(hold?.resolution, {
      opId: 'c1:settle:0',
      parts: [
        { to: bob, amount: 600n },
        { to: 'treasury', amount: 150n },
        { to: alice, amount: 250n },
      ],
    });
    assert.equal(hold?.status, 'resolved');
    await ledger.audit();
  });

  test('void releases the whole hold to its owner', async () => {
    const { ledger } = await store.fresh();
    await depositAndHold(ledger, bob, 500n, { id: 'c1:stake:b', amount: 50n, holdKind: 'stake' });
    await ledger.voidHold({ id: 'c1:stake:b:void', holdId: 'c1:stake:b' });
    assert.deepEqual(await usdc(ledger, bob), { available: 500n, held: 0n });
    const hold = await ledger.getHold('c1:stake:b');
    assert.deepEqual(hold?.resolution, { opId: 'c1:stake:b:void', parts: [{ to: bob, amount: 50n }] });
  });

  test('a batch applies all or nothing, and a repeated batch replays', async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n });
    await rejectsWith(
      ledger.batch([
        { kind: 'transfer', id: 'b1', asset: 'USDC', from: alice, to: bob, amount: 60n },
        { kind: 'transfer', id: 'b2', asset: 'USDC', from: alice, to: carol, amount: 60n },
      ]),
      'InsufficientFunds',
    );
    assert.equal((await usdc(ledger, alice)).available, 100n);
    assert.equal((await usdc(ledger, bob)).available, 0n);
    const ops = [
      { kind: 'transfer', id: 'b1', asset: 'USDC', from: alice, to: bob, amount: 60n },
      { kind: 'transfer', id: 'b2', asset: 'USDC', from: bob, to: carol, amount: 60n },
    ] as const;
    assert.deepEqual(
      (await ledger.batch([...ops])).map((r) => r.replayed),
      [false, false],
    );
    assert.deepEqual(
      (await ledger.batch([...ops])).map((r) => r.replayed),
      [true, true],
    );
    assert.deepEqual(
      [await usdc(ledger, alice), await usdc(ledger, bob), await usdc(ledger, carol)].map((b) => b.available),
      [40n, 0n, 60n],
    );
    await rejectsWith(
      ledger.batch([
        { kind: 'deposit', id: 'x1', asset: 'USDC', to: bob, amount: 1n },
        { kind: 'deposit', id: 'x1', asset: 'USDC', to: bob, amount: 1n },
      ]),
      'InvalidOperation',
      /ops\[1\]\.id/,
    );
  });

  test('a batch can void a hold and open a smaller one (escrow above the winning price refunded)', async () => {
    const { ledger } = await store.fresh();
    await depositAndHold(ledger, alice, 1000n, { id: 'c1:escrow', amount: 1000n, holdKind: 'escrow' });
    await ledger.batch([
      { kind: 'void', id: 'c1:match:0', holdId: 'c1:escrow' },
      {
        kind: 'hold',
        id: 'c1:match:1',
        owner: alice,
        asset: 'USDC',
        amount: 800n,
        holdKind: 'escrow',
        contractId: 'c1',
      },
    ]);
    assert.deepEqual(await usdc(ledger, alice), { available: 200n, held: 800n });
    const holds = await ledger.holdsByContract('c1');
    assert.deepEqual(
      holds.map((h) => [h.id, h.amount, h.status]),
      [
        ['c1:escrow', 1000n, 'resolved'],
        ['c1:match:1', 800n, 'open'],
      ],
    );
  });

  test('slashing part of an eligibility hold and re-holding the rest; the registry reads eligibility', async () => {
    const { ledger } = await store.fresh();
    for (const [i, who] of [alice, bob, carol].entries()) {
      await ledger.deposit({ id: `d${i}`, asset: 'USDC', to: who, amount: 200n });
    }
    await ledger.hold({ id: 'elig:a', owner: alice, asset: 'USDC', amount: 100n, holdKind: 'eligibility' });
    await ledger.hold({ id: 'elig:b1', owner: bob, asset: 'USDC', amount: 60n, holdKind: 'eligibility' });
    await ledger.hold({ id: 'elig:b2', owner: bob, asset: 'USDC', amount: 40n, holdKind: 'eligibility' });
    await ledger.hold({ id: 'elig:c', owner: carol, asset: 'USDC', amount: 99n, holdKind: 'eligibility' });
    assert.deepEqual(await ledger.eligibleAgents(100n), [
      { address: alice.slice(6), stake: 100n, seated: 0n },
      { address: bob.slice(6), stake: 100n, seated: 0n },
    ]);
    await ledger.batch([
      {
        kind: 'resolve',
        id: 'c9:slash:a',
        holdId: 'elig:a',
        contractId: 'c9',
        parts: [
          { to: 'treasury', amount: 30n },
          { to: alice, amount: 70n },
        ],
      },
      { kind: 'hold', id: 'c9:rehold:a', owner: alice, asset: 'USDC', amount: 70n, holdKind: 'eligibility' },
    ]);
    assert.deepEqual(await usdc(ledger, alice), { available: 100n, held: 70n });
    assert.deepEqual(await ledger.eligibleAgents(100n), [{ address: bob.slice(6), stake: 100n, seated: 0n }]);
    assert.deepEqual(await ledger.eligibleAgents(70n), [
      { address: alice.slice(6), stake: 70n, seated: 0n },
      { address: bob.slice(6), stake: 100n, seated: 0n },
      { address: carol.slice(6), stake: 99n, seated: 0n },
    ]);
    const postings = await ledger.postingsByContract('c9');
    assert.deepEqual(
      postings.map((p) => [p.opId, p.type, p.debit, p.credit, p.amount, p.holdId, p.holdKind]),
      [
        ['c9:slash:a', 'post', alice, 'treasury', 30n, 'elig:a', 'eligibility'],
        ['c9:slash:a', 'void', alice, null, 70n, 'elig:a', 'eligibility'],
      ],
    );
    assert.deepEqual(
      (await ledger.holdsOf(alice, { kind: 'eligibility', open: true })).map((h) => h.id),
      ['c9:rehold:a'],
    );
    await ledger.audit();
  });

  test("a contract's postings are its holds, their resolutions and the rows that name it, in order", async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 100n });
    const hold = (id: string, contractId: string): LedgerOp => ({
      kind: 'hold',
      id,
      owner: alice,
      asset: 'USDC',
      amount: 10n,
      holdKind: 'escrow',
      contractId,
    });
    await ledger.batch([hold('a:escrow', 'a'), hold('a:bond', 'a'), hold('b:escrow', 'b')]);
    await ledger.batch([
      // Takes the hold's contract; names it; names another contract.
      {
        kind: 'resolve',
        id: 'a:settle',
        holdId: 'a:escrow',
        parts: [
          { to: bob, amount: 9n },
          { to: 'treasury', amount: 1n },
        ],
      },
      { kind: 'void', id: 'a:release', holdId: 'a:bond' },
      {
        kind: 'resolve',
        id: 'b:moved',
        holdId: 'b:escrow',
        contractId: 'a',
        parts: [{ to: bob, amount: 10n }],
      },
      { kind: 'transfer', id: 'a:tip', asset: 'USDC', from: alice, to: bob, amount: 1n, contractId: 'a' },
    ]);
    const of = async (contractId: string) =>
      (await ledger.postingsByContract(contractId)).map((p) => [p.opId, p.type, p.amount, p.contractId]);
    assert.deepEqual(await of('a'), [
      ['a:escrow', 'pending', 10n, 'a'],
      ['a:bond', 'pending', 10n, 'a'],
      ['a:settle', 'post', 9n, 'a'],
      ['a:settle', 'post', 1n, 'a'],
      ['a:release', 'void', 10n, 'a'],
      ['b:moved', 'post', 10n, 'a'],
      ['a:tip', 'posted', 1n, 'a'],
    ]);
    assert.deepEqual(await of('b'), [['b:escrow', 'pending', 10n, 'b']]);
    const seqs = (await ledger.postingsByContract('a')).map((p) => p.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((x, y) => (x < y ? -1 : 1)),
    );
    await ledger.audit();
  });

  test('reward tokens are minted (OCT only); USDC is deposited (never minted)', async () => {
    const { ledger } = await store.fresh();
    await ledger.mint({ id: 'c1:reward:a', asset: 'OCT', to: alice, amount: 1_000_000n, contractId: 'c1' });
    assert.deepEqual((await ledger.balances(alice)).OCT, { available: 1_000_000n, held: 0n });
    await rejectsWith(
      ledger.mint({ id: 'm2', asset: 'USDC', to: alice, amount: 1n }),
      'InvalidOperation',
      /op\.asset/,
    );
    await rejectsWith(
      ledger.deposit({ id: 'm3', asset: 'OCT', to: alice, amount: 1n }),
      'InvalidOperation',
      /op\.asset/,
    );
    const report = await ledger.audit();
    assert.deepEqual(report.assets.OCT, { sum: 0n, mint: -1_000_000n });
    assert.deepEqual(
      (await ledger.postingsByContract('c1')).map((p) => [p.type, p.debit, p.credit, p.amount]),
      [['posted', 'mint', alice, 1_000_000n]],
    );
  });

  test('bad input is refused naming the field, and nothing changes', async () => {
    const { ledger } = await store.fresh();
    const cases: Array<[Promise<unknown>, RegExp]> = [
      [ledger.deposit({ id: 'x', asset: 'USDC', to: alice, amount: 0n }), /^op\.amount: must be positive/],
      [ledger.deposit({ id: 'x', asset: 'USDC', to: alice, amount: -5n }), /^op\.amount/],
      [
        ledger.deposit({ id: 'x', asset: 'USDC', to: alice, amount: 2n ** 63n }),
        /^op\.amount: must be at most/,
      ],
      [ledger.deposit({ id: '', asset: 'USDC', to: alice, amount: 1n }), /^op\.id/],
      [ledger.deposit({ id: 'x', asset: 'EUR' as 'USDC', to: alice, amount: 1n }), /^op\.asset/],
      [ledger.deposit({ id: 'x', asset: 'USDC', to: 'mint', amount: 1n }), /^op\.to/],
      [ledger.deposit({ id: 'x', asset: 'USDC', to: 'agent:0x12' as typeof alice, amount: 1n }), /^op\.to/],
      [
        ledger.transfer({ id: 'x', asset: 'USDC', from: alice, to: alice, amount: 1n }),
        /^op\.to: must differ/,
      ],
      [
        ledger.hold({ id: 'x', owner: alice, asset: 'USDC', amount: 1n, holdKind: 'escrow' }),
        /^op\.contractId: required/,
      ],
      [
        ledger.hold({
          id: 'x',
          owner: alice,
          asset: 'USDC',
          amount: 1n,
          holdKind: 'eligibility',
          contractId: 'c1',
        }),
        /^op\.contractId: an eligibility hold/,
      ],
      [
        ledger.hold({
          id: 'x',
          owner: alice,
          asset: 'USDC',
          amount: 1n,
          holdKind: 'bail' as 'stake',
          contractId: 'c',
        }),
        /^op\.holdKind/,
      ],
      [ledger.resolve({ id: 'x', holdId: 'h', parts: [] }), /^op\.parts: must be a non-empty array/],
      [ledger.resolve({ id: 'x', holdId: 'h', parts: [{ to: 'mint', amount: 1n }] }), /^op\.parts\[0\]\.to/],
      [
        ledger.deposit({ id: 'x', asset: 'USDC', to: alice, amount: 1n, memo: 'hi' } as never),
        /^op\.memo: unknown field/,
      ],
      [
        ledger.deposit({ id: 'x', asset: 'USDC', to: alice, amount: 1 as unknown as bigint }),
        /^op\.amount: must be a bigint/,
      ],
    ];
    for (const [promise, message] of cases) await rejectsWith(promise, 'InvalidOperation', message);
    assert.equal((await ledger.audit()).transfers, 0);
  });

  test('the database itself refuses to change or delete transfer rows and to overdraw an account', async () => {
    const { ledger, exec } = await store.fresh();
    await depositAndHold(ledger, alice, 100n, { id: 'h1', amount: 40n, holdKind: 'stake' });
    await ledger.resolve({ id: 'r1', holdId: 'h1', parts: [{ to: bob, amount: 40n }] });
    await assert.rejects(exec('UPDATE ledger_transfers SET amount = 1'), /immutable/);
    await assert.rejects(exec('DELETE FROM ledger_transfers'), /immutable/);
    await assert.rejects(exec("UPDATE ledger_operations SET body = '{}'"), /immutable/);
    const insert = (op: string, type: string, credit: string, amount: number, extra = 'NULL, NULL, NULL') =>
      `INSERT INTO ledger_operations VALUES ('${op}', 'transfer', '{}', 'now');
       INSERT INTO ledger_transfers (op_id, idx, type, asset, debit_owner, credit_owner, amount, hold_id, closes_hold, hold_kind, created_at)
       VALUES ('${op}', 0, '${type}', 'USDC', '${alice}', ${credit}, ${amount}, ${extra}, 'now')`;
    // Overdraw: alice has 60 available.
    await assert.rejects(
      exec(`BEGIN; ${insert('raw1', 'posted', `'${bob}'`, 61)}; COMMIT`),
      /check|constraint/i,
    );
    // A second resolution of the resolved hold h1.
    await assert.rejects(
      exec(`BEGIN; ${insert('raw2', 'post', `'${bob}'`, 40, "'h1', 'h1', 'stake'")}; COMMIT`),
      /already resolved|unique/i,
    );
    await exec('ROLLBACK').catch(() => undefined);
    assert.deepEqual(await usdc(ledger, alice), { available: 60n, held: 0n });
    await ledger.audit();
  });

  test('a store keeps its state when closed and opened again', async () => {
    const config = store.newConfig();
    const first = await openLedger(config);
    await first.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 7n });
    await first.close();
    const second = await store.openTracked(config);
    assert.equal((await usdc(second, alice)).available, 7n);
    assert.equal((await second.deposit({ id: 'd1', asset: 'USDC', to: alice, amount: 7n })).replayed, true);
  });
});
