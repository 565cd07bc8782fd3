// Panel seats in the ledger (store/ledger/seats.ts) on every store: a seat holds the bond out
// of the free eligibility stake, an unlock frees only the free part, one stake never backs more
// seats than it can pay for, and a seat racing an unlock never lets both take the same stake.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentOwner, type Ledger } from '../../store/ledger';
import { seatPanel } from '../../store/ledger/seats';
import { createLedgerActivities } from '../../activities/ledger-activities';
import { seatHoldId } from '../../workflows/rules/seats';
import { describeEachStore } from './stores';

const BOND = 10_000_000n;
const agent = (n: number) => '0x' + n.toString(16).padStart(2, '0').repeat(20);
const [A, B, C] = [agent(0xa1), agent(0xb2), agent(0xc3)];

async function stakeOf(ledger: Ledger, who: string) {
  const [entry] = (await ledger.eligibleAgents(1n)).filter((e) => e.address === who);
  const usdc = (await ledger.balances(agentOwner(who))).USDC;
  return { free: entry?.stake ?? 0n, seated: entry?.seated ?? 0n, ...usdc };
}

async function eligible(ledger: Ledger, who: string, amount: bigint) {
  await ledger.deposit({ id: `fund:${who}`, asset: 'USDC', to: agentOwner(who), amount });
  await createLedgerActivities({ ledger }).lockEligibility({
    address: who,
    amount: amount.toString(),
    key: 'lock',
  });
}

describeEachStore('panel seats', (store) => {
  test('a seat holds the bond out of the free stake; a retry changes nothing', async () => {
    const { ledger } = await store.fresh();
    for (const who of [A, B, C]) await eligible(ledger, who, 100_000_000n);
    assert.deepEqual(await seatPanel(ledger, 'c1', [A, B, C], BOND), { seated: true, replayed: false });
    assert.deepEqual(await seatPanel(ledger, 'c1', [A, B, C], BOND), { seated: true, replayed: true });
    assert.deepEqual(await stakeOf(ledger, A), {
      free: 90_000_000n,
      seated: 10_000_000n,
      available: 0n,
      held: 100_000_000n,
    });
    const hold = await ledger.getHold(seatHoldId('c1', A));
    assert.equal(hold?.kind, 'ba-bond');
    assert.equal(hold?.contractId, 'c1');
    assert.equal(hold?.amount, BOND);
    await ledger.audit();
  });

  test('an agent with stake for k seats is never seated k + 1 times; all or none of a panel is seated', async () => {
    const { ledger } = await store.fresh();
    await eligible(ledger, A, 30_000_000n); // three seats' worth
    await eligible(ledger, B, 100_000_000n);
    for (const c of ['c1', 'c2', 'c3']) {
      assert.equal((await seatPanel(ledger, c, [A, B], BOND)).seated, true);
    }
    assert.deepEqual(await seatPanel(ledger, 'c4', [B, A], BOND), { seated: false, short: [A] });
    assert.equal(await ledger.getHold(seatHoldId('c4', B)), undefined, 'B was not seated without A');
    assert.deepEqual(await stakeOf(ledger, A), {
      free: 0n,
      seated: 30_000_000n,
      available: 0n,
      held: 30_000_000n,
    });
    assert.equal((await stakeOf(ledger, B)).seated, 30_000_000n);
  });

  test('unlocking while seated frees only the free part', async () => {
    const { ledger } = await store.fresh();
    const acts = createLedgerActivities({ ledger });
    await eligible(ledger, A, 100_000_000n);
    await seatPanel(ledger, 'c1', [A], BOND);
    await seatPanel(ledger, 'c2', [A], BOND);
    await assert.rejects(
      acts.unlockEligibility({ address: A, amount: '80000001', key: 'u1' }),
      (e: Error & { type?: string }) => e.type === 'InsufficientFunds',
    );
    assert.deepEqual(await acts.unlockEligibility({ address: A, key: 'u2' }), { released: '80000000' });
    assert.deepEqual(await stakeOf(ledger, A), {
      free: 0n,
      seated: 20_000_000n,
      available: 80_000_000n,
      held: 20_000_000n,
    });
    assert.equal((await ledger.getHold(seatHoldId('c1', A)))?.status, 'open');
    await ledger.audit();
  });

  test('concurrent seatings of one agent never conflict: exactly as many seats as its stake covers, none failed', async () => {
    const { ledger } = await store.fresh();
    for (const who of [A, B, C]) await eligible(ledger, who, 10n * BOND); // ten seats each
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => seatPanel(ledger, `burst${i}`, [A, B, C], BOND)),
    );
    assert.deepEqual(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      [],
      'no seating failed',
    );
    const seated = results.filter((r) => r.status === 'fulfilled' && r.value.seated).length;
    assert.equal(seated, 10);
    for (const who of [A, B, C])
      assert.deepEqual(await stakeOf(ledger, who), {
        free: 0n,
        seated: 10n * BOND,
        available: 0n,
        held: 10n * BOND,
      });
    await ledger.audit();
  });

  test('a seat racing an unlock: the stake is taken once, by one or the other', async () => {
    const { ledger } = await store.fresh();
    const acts = createLedgerActivities({ ledger });
    for (let round = 0; round < 6; round++) {
      const who = agent(0x10 + round);
      await eligible(ledger, who, 15_000_000n); // one seat, or 15 USDC unlocked, not both
      const [seat, unlock] = await Promise.allSettled([
        seatPanel(ledger, `race${round}`, [who], BOND),
        acts.unlockEligibility({ address: who, key: `race${round}` }),
      ]);
      const s = await stakeOf(ledger, who);
      assert.equal(s.available + s.held, 15_000_000n);
      const seated = seat.status === 'fulfilled' && seat.value.seated;
      assert.equal(s.seated, seated ? BOND : 0n);
      const released = unlock.status === 'fulfilled' ? BigInt(unlock.value.released) : 0n;
      assert.equal(s.available, released);
      assert.equal(s.free + s.seated + released, 15_000_000n);
    }
    await ledger.audit();
  });
});
