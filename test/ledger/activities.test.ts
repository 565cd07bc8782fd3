// The ledger activities in the SDK's MockActivityEnvironment, against a real SQLite file.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { agentOwner, openLedger } from '../../store/ledger';
import type { Ledger } from '../../store/ledger';
import { createLedgerActivities } from '../../activities/ledger-activities';
import type { LedgerActivities } from '../../workflows/activity-interfaces';
import { createPanelActivities } from '../../activities/panel-activities';
import { BAS, CLIENT, OTHER, WORKER } from '../support/fixtures';

let dir: string;
let count = 0;
let ledger: Ledger;
let acts: LedgerActivities;
let panelActs: ReturnType<typeof createPanelActivities>;

/** Runs an activity the way a worker would, on a fresh mock environment (attempt numbers vary). */
function run<A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  return new MockActivityEnvironment({ attempt: 1 + Math.floor(Math.random() * 5) }).run(fn, ...args);
}

async function failure(promise: Promise<unknown>): Promise<ApplicationFailure> {
  const error = await promise.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApplicationFailure, `not an ApplicationFailure: ${String(error)}`);
  return error;
}

async function usdc(address: string) {
  return (await ledger.balances(address === 'treasury' ? 'treasury' : agentOwner(address))).USDC;
}

describe('ledger activities (MockActivityEnvironment, SQLite file)', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'oc-ledger-acts-'));
  });
  after(async () => {
    await ledger?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await ledger?.close();
    ledger = await openLedger({ kind: 'sqlite', path: join(dir, `ledger-${++count}.db`) });
    acts = createLedgerActivities({ ledger });
    panelActs = createPanelActivities({ ledger });
    for (const [i, who] of [CLIENT, WORKER, OTHER, ...BAS].entries()) {
      await ledger.deposit({ id: `fund:${i}`, asset: 'USDC', to: agentOwner(who), amount: 1_000_000_000n });
    }
  });

  test('lock escrow, stake and bond: ids from contract and step, a retry locks nothing more', async () => {
    const escrow = { contractId: 'c1', client: CLIENT, amount: '500000000' };
    const held = { holdId: 'c1:escrow', feeHoldId: null };
    assert.deepEqual(await run(acts.lockEscrow, escrow), { ...held, replayed: false });
    assert.deepEqual(await run(acts.lockEscrow, escrow), { ...held, replayed: true });
    assert.deepEqual(await usdc(CLIENT), { available: 500_000_000n, held: 500_000_000n });

    const stake = await run(acts.lockStake, {
      contractId: 'c1',
      worker: WORKER.toUpperCase().replace('0X', '0x'),
      amount: '50000000',
    });
    assert.deepEqual(stake, { holdId: `c1:stake:${WORKER}`, replayed: false });
    const other = await run(acts.lockStake, { contractId: 'c1', worker: OTHER, amount: '50000000' });
    assert.equal(other.holdId, `c1:stake:${OTHER}`); // each open-tender caller has its own hold
    const bond = await run(acts.lockBond, {
      contractId: 'c1',
      kind: 'dispute-bond',
      party: CLIENT,
      amount: '25000000',
    });
    assert.equal(bond.holdId, `c1:dispute-bond:${CLIENT}`);
    assert.deepEqual(
      (await ledger.holdsByContract('c1')).map((h) => [h.id, h.kind, h.amount]),
      [
        ['c1:escrow', 'escrow', 500_000_000n],
        [`c1:stake:${WORKER}`, 'stake', 50_000_000n],
        [`c1:stake:${OTHER}`, 'stake', 50_000_000n],
        [`c1:dispute-bond:${CLIENT}`, 'dispute-bond', 25_000_000n],
      ],
    );
  });

  test('a bond and its panel fee are held together or not at all; a retry holds nothing more', async () => {
    const dispute = {
      contractId: 'c2',
      kind: 'dispute-bond' as const,
      party: CLIENT,
      amount: '25000000',
      panelFee: { round: 'panel' as const, amount: '600000' },
    };
    assert.deepEqual(await run(acts.lockBond, dispute), {
      holdId: `c2:dispute-bond:${CLIENT}`,
      feeHoldId: 'c2:panel-fee:panel',
      replayed: false,
    });
    assert.equal((await run(acts.lockBond, dispute)).replayed, true);
    assert.deepEqual(await usdc(CLIENT), { available: 1_000_000_000n - 25_600_000n, held: 25_600_000n });
    // The fee alone (a bond that rounds to zero), and a payer that cannot fund both: nothing held.
    const feeOnly = await run(acts.lockAppealBond, {
      contractId: 'c3',
      party: WORKER,
      amount: '0',
      panelFee: { round: 'appeal', amount: '1000000' },
    });
    assert.equal(feeOnly.feeHoldId, 'c3:panel-fee:appeal');
    assert.equal(await ledger.getHold(`c3:appeal-bond:${WORKER}`), undefined);
    await assert.rejects(
      run(acts.lockEscrow, {
        contractId: 'c4',
        client: OTHER,
        amount: '999900000',
        panelFee: { round: 'panel', amount: '600000' },
      }),
      (e: Error & { type?: string }) => e.type === 'InsufficientFunds',
    );
    assert.deepEqual(await ledger.holdsByContract('c4'), []);
    await ledger.audit();
  });

  test('insufficient funds is a non-retryable InsufficientFunds failure and locks nothing', async () => {
    const error = await failure(
      run(acts.lockEscrow, { contractId: 'c2', client: CLIENT, amount: '1000000001' }),
    );
    assert.equal(error.type, 'InsufficientFunds');
    assert.equal(error.nonRetryable, true);
    assert.deepEqual(error.details, [
      { owner: agentOwner(CLIENT), asset: 'USDC', needed: '1000000001', available: '1000000000' },
    ]);
    assert.deepEqual(await usdc(CLIENT), { available: 1_000_000_000n, held: 0n });
    assert.deepEqual(await ledger.holdsByContract('c2'), []);
  });

  test('bad input is a non-retryable InvalidOperation failure naming the field', async () => {
    const cases: Array<[Promise<unknown>, RegExp]> = [
      [run(acts.lockEscrow, { contractId: 'c3', client: CLIENT, amount: '2.5' }), /^amount:/],
      [run(acts.lockEscrow, { contractId: 'c3', client: CLIENT, amount: '0' }), /^amount:/],
      [run(acts.lockEscrow, { contractId: 'c3', client: 'bob', amount: '1' }), /^client:/],
      [run(acts.lockEscrow, { contractId: 'c:3', client: CLIENT, amount: '1' }), /^contractId:/],
      [run(acts.settle, { contractId: 'c3', step: 'settle', postings: [] }), /^postings:/],
      [
        run(acts.settle, {
          contractId: 'c3',
          step: 'settle',
          postings: [{ type: 'mint', to: WORKER, amount: '-1' }],
        }),
        /^postings\[0\]\.amount:/,
      ],
      [run(panelActs.closePanel, { contractId: 'c3', milestoneIndex: -1, rows: [] }), /^milestoneIndex:/],
      [run(panelActs.closePanel, { contractId: 'c3', milestoneIndex: 1.5, rows: [] }), /^milestoneIndex:/],
    ];
    for (const [promise, message] of cases) {
      const error = await failure(promise);
      assert.equal(error.type, 'InvalidOperation');
      assert.equal(error.nonRetryable, true);
      assert.match(error.message, message);
    }
  });

  test('a retried settle moves money once (fully met: escrow to the Worker, stake back, bond slashed)', async () => {
    await run(acts.lockEscrow, { contractId: 'c4', client: CLIENT, amount: '500000000' });
    await run(acts.lockStake, { contractId: 'c4', worker: WORKER, amount: '50000000' });
    await run(acts.lockBond, { contractId: 'c4', kind: 'dispute-bond', party: CLIENT, amount: '25000000' });
    const settlement = {
      contractId: 'c4',
      step: 'settlement',
      postings: [
        { type: 'resolve' as const, holdId: 'c4:escrow', parts: [{ to: WORKER, amount: '500000000' }] },
        { type: 'void' as const, holdId: `c4:stake:${WORKER}` },
        {
          type: 'resolve' as const,
          holdId: `c4:dispute-bond:${CLIENT}`,
          parts: [{ to: 'treasury', amount: '25000000' }],
        },
      ],
    };
    const first = await run(acts.settle, settlement);
    assert.deepEqual(first, {
      opIds: ['c4:settlement:0', 'c4:settlement:1', 'c4:settlement:2'],
      replayed: false,
    });
    // The worker died after the commit; Temporal retries the activity with the same input.
    assert.deepEqual(await run(acts.settle, settlement), { ...first, replayed: true });
    assert.deepEqual(await run(acts.settle, settlement), { ...first, replayed: true });
    assert.deepEqual(await usdc(WORKER), { available: 1_500_000_000n, held: 0n });
    assert.deepEqual(await usdc(CLIENT), { available: 475_000_000n, held: 0n });
    assert.deepEqual(await usdc('treasury'), { available: 25_000_000n, held: 0n });
    assert.equal((await ledger.holdsByContract('c4')).filter((h) => h.status === 'open').length, 0);
    await ledger.audit();
  });

  test('a final settle releases a stray hold of the contract once, and only that contract’s', async () => {
    await run(acts.lockEscrow, { contractId: 'c9', client: CLIENT, amount: '500000000' });
    await run(acts.lockStake, { contractId: 'c9', worker: WORKER, amount: '50000000' });
    // A stake locked by a workflow task that failed, for an accept its retried task refused.
    await run(acts.lockStake, { contractId: 'c9', worker: OTHER, amount: '50000000' });
    // Another contract's bond of the same party stays held.
    await run(acts.lockBond, { contractId: 'c10', kind: 'ba-bond', party: OTHER, amount: '5000000' });
    const settlement = {
      contractId: 'c9',
      step: 'settlement',
      final: true,
      postings: [
        { type: 'resolve' as const, holdId: 'c9:escrow', parts: [{ to: WORKER, amount: '500000000' }] },
        { type: 'void' as const, holdId: `c9:stake:${WORKER}` },
      ],
    };
    const first = await run(acts.settle, settlement);
    assert.deepEqual(first, { opIds: ['c9:settlement:0', 'c9:settlement:1'], replayed: false });
    assert.deepEqual(await run(acts.settle, settlement), { ...first, replayed: true });
    assert.deepEqual(await usdc(OTHER), { available: 995_000_000n, held: 5_000_000n });
    assert.deepEqual(await usdc(WORKER), { available: 1_500_000_000n, held: 0n });
    assert.deepEqual(await usdc(CLIENT), { available: 500_000_000n, held: 0n });
    const stray = (await ledger.holdsByContract('c9')).find((h) => h.id === `c9:stake:${OTHER}`);
    assert.equal(stray?.status, 'resolved');
    assert.equal(stray?.resolution?.opId, `c9:stake:${OTHER}:stray`);
    assert.equal((await ledger.holdsByContract('c10')).filter((h) => h.status === 'open').length, 1);
    await ledger.audit();
  });

  test('a settle without `final` leaves the contract’s other holds alone; a bad `final` is refused', async () => {
    await run(acts.lockEscrow, { contractId: 'c11', client: CLIENT, amount: '500000000' });
    await run(acts.lockStake, { contractId: 'c11', worker: WORKER, amount: '50000000' });
    const refund = {
      contractId: 'c11',
      step: 'match-refund',
      postings: [{ type: 'void' as const, holdId: 'c11:escrow' }],
    };
    const bad = await failure(run(acts.settle, { ...refund, final: 'yes' as unknown as boolean }));
    assert.match(bad.message, /^final:/);
    await run(acts.settle, refund);
    assert.deepEqual(await usdc(WORKER), { available: 950_000_000n, held: 50_000_000n });
  });

  test('a settle that does not add up fails non-retryably and moves nothing', async () => {
    await run(acts.lockEscrow, { contractId: 'c5', client: CLIENT, amount: '100' });
    await run(acts.lockStake, { contractId: 'c5', worker: WORKER, amount: '10' });
    const error = await failure(
      run(acts.settle, {
        contractId: 'c5',
        step: 'settlement',
        postings: [
          { type: 'void', holdId: `c5:stake:${WORKER}` },
          {
            type: 'resolve',
            holdId: 'c5:escrow',
            parts: [
              { to: WORKER, amount: '66' },
              { to: CLIENT, amount: '33' },
            ],
          },
        ],
      }),
    );
    assert.equal(error.type, 'PartsMismatch');
    assert.equal(error.nonRetryable, true);
    assert.deepEqual(await usdc(WORKER), { available: 999_999_990n, held: 10n });
    assert.deepEqual(await usdc(CLIENT), { available: 999_999_900n, held: 100n });
  });

  test('a seat holds its bond out of the eligibility stake; a slice slashed from it, the rest held again, once', async () => {
    await run(acts.lockEligibility, { address: BAS[0]!, amount: '100000000', key: 'k1' });
    const seat = { contractId: 'c6', members: [BAS[0]!], bond: '10000000' };
    assert.deepEqual(await run(panelActs.seatPanel, seat), { seated: true, replayed: false });
    assert.deepEqual(await run(panelActs.seatPanel, seat), { seated: true, replayed: true });
    assert.deepEqual(await run(acts.listEligibleAgents, { minStake: '100000000' }), [
      { address: BAS[0], stake: '90000000', seated: '10000000' },
    ]);
    const settlement = {
      contractId: 'c6',
      step: 'tally',
      postings: [
        {
          type: 'resolve' as const,
          holdId: `c6:ba-bond:${BAS[0]}`,
          parts: [
            { to: 'treasury', amount: '3333333' },
            { to: BAS[0]!, amount: '6666667' },
          ],
        },
        { type: 'hold' as const, owner: BAS[0]!, kind: 'eligibility' as const, amount: '6666667' },
      ],
    };
    await run(acts.settle, settlement);
    await run(acts.settle, settlement);
    assert.deepEqual(await usdc(BAS[0]!), { available: 900_000_000n, held: 96_666_667n });
    assert.deepEqual(await run(acts.listEligibleAgents, { minStake: '96666667' }), [
      { address: BAS[0], stake: '96666667', seated: '0' },
    ]);
    assert.deepEqual(await run(acts.listEligibleAgents, { minStake: '100000000' }), []);
    assert.deepEqual(
      (await ledger.postingsByContract('c6')).map((p) => [p.type, p.credit, p.amount]),
      [
        ['pending', null, 10_000_000n],
        ['post', 'treasury', 3_333_333n],
        ['void', null, 6_666_667n],
      ],
    );
  });

  test('a panel closed on milestones 0 and 1 keeps both milestones’ rows of one BA; a retried close adds nothing', async () => {
    const wire = (vote: 'met' | 'not met') => ({
      contractId: 'c7',
      backupAgent: BAS[0]!,
      criterionIndex: 0,
      vote,
      majorityOutcome: 'met' as const,
      bondOutcome: vote === 'met' ? ('returned' as const) : ('slashed' as const),
      reward: vote === 'met' ? '1000000' : '0',
    });
    for (const [milestoneIndex, vote] of [
      [0, 'met'],
      [1, 'not met'],
      [1, 'not met'], // the activity retried after its commit
    ] as const) {
      await run(panelActs.closePanel, { contractId: 'c7', milestoneIndex, rows: [wire(vote)] });
    }
    assert.deepEqual(
      (await ledger.panels.voteRowsOf(BAS[0]!)).map((r) => [r.milestoneIndex, r.vote, r.reward]),
      [
        [0, 'met', 1_000_000n],
        [1, 'not met', 0n],
      ],
    );
  });

  test('eligibility unlock releases part of the stake, holds the rest, and a retry answers the same', async () => {
    await run(acts.lockEligibility, { address: BAS[1]!, amount: '60000000', key: 'a' });
    await run(acts.lockEligibility, { address: BAS[1]!, amount: '60000000', key: 'b' });
    await run(acts.lockEligibility, { address: BAS[1]!, amount: '60000000', key: 'b' }); // retry
    assert.deepEqual(await usdc(BAS[1]!), { available: 880_000_000n, held: 120_000_000n });
    const unlock = { address: BAS[1]!, amount: '50000000', key: 'u1' };
    assert.deepEqual(await run(acts.unlockEligibility, unlock), { released: '50000000' });
    assert.deepEqual(await run(acts.unlockEligibility, unlock), { released: '50000000' });
    assert.deepEqual(await usdc(BAS[1]!), { available: 930_000_000n, held: 70_000_000n });
    const tooMuch = await failure(
      run(acts.unlockEligibility, { address: BAS[1]!, amount: '70000001', key: 'u2' }),
    );
    assert.equal(tooMuch.type, 'InsufficientFunds');
    assert.equal(tooMuch.nonRetryable, true);
    assert.deepEqual(await run(acts.unlockEligibility, { address: BAS[1]!, key: 'u3' }), {
      released: '70000000',
    });
    assert.deepEqual(await run(acts.unlockEligibility, { address: BAS[1]!, key: 'u3' }), {
      released: '70000000',
    });
    assert.deepEqual(await usdc(BAS[1]!), { available: 1_000_000_000n, held: 0n });
    await ledger.audit();
  });

  test('rewards (mint postings of a settle step) are minted once, however often the activity runs', async () => {
    const rewards = {
      contractId: 'c7',
      step: 'tally',
      postings: [
        { type: 'mint' as const, to: BAS[0]!, amount: '3000000' },
        { type: 'mint' as const, to: BAS[1]!, amount: '500000' },
      ],
    };
    const first = await run(acts.settle, rewards);
    assert.deepEqual(first, { opIds: ['c7:tally:0', 'c7:tally:1'], replayed: false });
    assert.deepEqual(await run(acts.settle, rewards), { ...first, replayed: true });
    const oct = async (a: string) => (await ledger.balances(agentOwner(a))).OCT.available;
    assert.deepEqual(
      [await oct(BAS[0]!), await oct(BAS[1]!), await oct(BAS[2]!)],
      [3_000_000n, 500_000n, 0n],
    );
    assert.equal((await ledger.audit()).assets.OCT.mint, -3_500_000n);
  });
});
