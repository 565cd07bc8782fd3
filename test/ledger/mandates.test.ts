// Mandates in the ledger (store/ledger/mandates.ts): a hold under a mandate is checked and recorded in
// its own transaction. Each limit refuses at its edge with nothing held; revocation and expiry refuse the
// next hold; a released hold frees `total` but not `perDay`. Then a property: random mandates of one owner
// and random concurrent holds, bond moves and releases by its delegates never bring any mandate's
// commitments above a limit, and every ledger invariant holds. Rerun a failure with MANDATE_FC_SEED=<seed>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { agentOwner, MandateRefusedError, openLedger } from '../../store/ledger';
import type { HoldKind, Ledger, LedgerOp, Mandate, MandateLimits } from '../../store/ledger';
import { describeEachStore } from './stores';

const OWNER = '0x' + 'a'.repeat(40);
const OWNER_ACCOUNT = agentOwner(OWNER);
const DELEGATES = ['0x' + 'd1'.repeat(20), '0x' + 'd2'.repeat(20), '0x' + 'd3'.repeat(20)];
const NUM_RUNS = Number(process.env.MANDATE_FC_RUNS ?? 15);
const SEED = process.env.MANDATE_FC_SEED ? Number(process.env.MANDATE_FC_SEED) : undefined;

function limits(perContract: bigint, total: bigint, perDay: bigint): MandateLimits {
  return { perContract, total, perDay, roles: null, counterparties: null };
}

async function grant(ledger: Ledger, delegate: string, l: MandateLimits, expiresInMs = 3600_000) {
  const now = Date.now();
  return ledger.mandates.grant({
    id: randomUUID(),
    owner: OWNER,
    delegate,
    limits: l,
    expiresAt: new Date(now + expiresInMs).toISOString(),
    createdAt: new Date(now).toISOString(),
  });
}

let holdCount = 0;
function hold(mandate: Mandate, contractId: string, amount: bigint, kind: HoldKind = 'escrow') {
  holdCount += 1;
  return {
    kind: 'hold' as const,
    id: `${contractId}:${kind}:${holdCount}`,
    owner: OWNER_ACCOUNT,
    asset: 'USDC' as const,
    amount,
    holdKind: kind,
    contractId,
    mandate: mandate.id,
  };
}

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => assert.fail('the hold was taken'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof MandateRefusedError, String(error));
  return error.details.code!;
}

async function held(ledger: Ledger): Promise<bigint> {
  return (await ledger.balances(OWNER_ACCOUNT)).USDC.held;
}

describeEachStore('mandates', (store) => {
  test('each limit refuses at its edge and holds nothing', async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'dep', asset: 'USDC', to: OWNER_ACCOUNT, amount: 10_000n });
    const m = await grant(ledger, DELEGATES[0]!, limits(300n, 500n, 700n));

    await ledger.hold(hold(m, 'c1', 300n)); // perContract exactly
    assert.equal(await refusal(ledger.hold(hold(m, 'c1', 1n))), 'mandate_exceeded');
    await ledger.hold(hold(m, 'c2', 200n)); // total exactly
    assert.equal(await refusal(ledger.hold(hold(m, 'c3', 1n))), 'mandate_exceeded');
    assert.equal(await held(ledger), 500n);

    // A release frees total (and perContract) but not perDay.
    const [first] = await ledger.holdsByContract('c1');
    await ledger.voidHold({ id: 'release-c1', holdId: first!.id });
    await ledger.hold(hold(m, 'c3', 200n)); // last day: 700, exactly perDay
    assert.equal(await refusal(ledger.hold(hold(m, 'c4', 1n))), 'mandate_exceeded');
    assert.equal(await held(ledger), 400n);

    const [standing] = await ledger.mandates.list(OWNER);
    assert.equal(standing!.committed, 400n);
    assert.equal(standing!.committedLastDay, 700n);
    assert.equal(standing!.left, 0n);
    await ledger.audit();
  });

  test('a bid bond moved in one batch counts once against perContract', async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'dep', asset: 'USDC', to: OWNER_ACCOUNT, amount: 10_000n });
    const m = await grant(ledger, DELEGATES[0]!, limits(100n, 1000n, 1000n));
    const first = hold(m, 'auction', 100n, 'stake');
    await ledger.hold(first);
    await ledger.batch([{ kind: 'void', id: 'move:0', holdId: first.id }, hold(m, 'auction', 90n, 'stake')]);
    assert.equal(await held(ledger), 90n);
  });

  test('revocation and expiry refuse the next hold; a hold of another owner is refused', async () => {
    const { ledger } = await store.fresh();
    await ledger.deposit({ id: 'dep', asset: 'USDC', to: OWNER_ACCOUNT, amount: 10_000n });
    const other = agentOwner('0x' + 'b'.repeat(40));
    await ledger.deposit({ id: 'dep-b', asset: 'USDC', to: other, amount: 10_000n });
    const m = await grant(ledger, DELEGATES[0]!, limits(100n, 1000n, 1000n));
    await ledger.hold(hold(m, 'c1', 50n));
    assert.equal(
      await refusal(ledger.hold({ ...hold(m, 'c2', 10n), owner: other })),
      'mandate_revoked',
      "a mandate never commits another owner's balance",
    );
    await assert.rejects(grant(ledger, DELEGATES[0]!, limits(1n, 1n, 1n)), { code: 'MandateExists' });
    assert.equal((await ledger.mandates.revoke(OWNER, m.id))!.revokedAt !== null, true);
    assert.equal(await refusal(ledger.hold(hold(m, 'c2', 10n))), 'mandate_revoked');

    const short = await grant(ledger, DELEGATES[1]!, limits(100n, 1000n, 1000n), 1);
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(await refusal(ledger.hold(hold(short, 'c3', 10n))), 'mandate_expired');
    assert.equal(await held(ledger), 50n);
    assert.equal((await ledger.balances(other)).USDC.held, 0n);
    await ledger.audit();
  });

  test('property: concurrent holds by several delegates never exceed any limit', async () => {
    type Action =
      | { t: 'hold'; delegate: number; contract: number; amount: bigint; kind: HoldKind }
      | { t: 'move'; delegate: number; contract: number; amount: bigint }
      | { t: 'release'; pick: number };
    const action: fc.Arbitrary<Action> = fc.oneof(
      fc.record({
        t: fc.constant('hold' as const),
        delegate: fc.nat({ max: 2 }),
        contract: fc.nat({ max: 4 }),
        amount: fc.bigInt({ min: 1n, max: 120n }),
        kind: fc.constantFrom<HoldKind>('escrow', 'stake', 'dispute-bond'),
      }),
      fc.record({
        t: fc.constant('move' as const),
        delegate: fc.nat({ max: 2 }),
        contract: fc.nat({ max: 4 }),
        amount: fc.bigInt({ min: 1n, max: 120n }),
      }),
      fc.record({ t: fc.constant('release' as const), pick: fc.nat() }),
    );
    const mandateLimits = fc
      .tuple(
        fc.bigInt({ min: 1n, max: 200n }),
        fc.bigInt({ min: 1n, max: 400n }),
        fc.bigInt({ min: 1n, max: 600n }),
      )
      .map(([perContract, total, perDay]) => limits(perContract, total, perDay));

    await fc.assert(
      fc.asyncProperty(
        fc.array(mandateLimits, { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(action, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }),
        fc.bigInt({ min: 100n, max: 2000n }),
        async (granted, rounds, funds) => {
          const ledger = await openLedger(store.newConfig());
          try {
            await ledger.deposit({ id: 'dep', asset: 'USDC', to: OWNER_ACCOUNT, amount: funds });
            const mandates: Mandate[] = [];
            for (const [i, l] of granted.entries()) mandates.push(await grant(ledger, DELEGATES[i]!, l));
            let step = 0;
            for (const round of rounds) {
              // Every action of a round runs at once: the store alone orders them.
              await Promise.all(
                round.map(async (a) => {
                  step += 1;
                  const tag = `r${step}`;
                  const attempt = async (): Promise<unknown> => {
                    if (a.t === 'release') {
                      const open = (await ledger.holdsOf(OWNER_ACCOUNT, { open: true })) ?? [];
                      const target = open[a.pick % Math.max(open.length, 1)];
                      if (target === undefined) return;
                      return ledger.voidHold({ id: `${tag}:void`, holdId: target.id });
                    }
                    const index = a.delegate % mandates.length;
                    const m = mandates[index]!;
                    // Each delegate's contracts are its own, so the open holds of one are its commitments there.
                    const contractId = `m${index}-c${a.contract}`;
                    if (a.t === 'hold') return ledger.hold(hold(m, contractId, a.amount, a.kind));
                    const bond = (await ledger.holdsByContract(contractId)).find(
                      (h) => h.status === 'open' && h.kind === 'stake',
                    );
                    const ops: LedgerOp[] = [
                      ...(bond ? [{ kind: 'void' as const, id: `${tag}:move`, holdId: bond.id }] : []),
                      hold(m, contractId, a.amount, 'stake'),
                    ];
                    return ledger.batch(ops);
                  };
                  // A refusal (a limit, the owner's funds, a race lost on a released hold) changes nothing.
                  await attempt().catch((e: unknown) => {
                    const code = (e as { code?: string }).code;
                    assert.ok(
                      ['MandateRefused', 'InsufficientFunds', 'HoldAlreadyResolved'].includes(code ?? ''),
                      String(e),
                    );
                  });
                }),
              );
              const standings = await ledger.mandates.list(OWNER);
              const perContract = new Map<string, bigint>();
              for (const h of await ledger.holdsOf(OWNER_ACCOUNT, { open: true }))
                perContract.set(h.contractId!, (perContract.get(h.contractId!) ?? 0n) + h.amount);
              for (const [index, m] of mandates.entries()) {
                const s = standings.find((st) => st.id === m.id)!;
                assert.ok(s.committed <= s.limits.total, `${s.id}: ${s.committed} > total ${s.limits.total}`);
                assert.ok(s.committedLastDay <= s.limits.perDay, `${s.id}: above perDay`);
                let open = 0n;
                for (const [contractId, amount] of perContract) {
                  if (!contractId.startsWith(`m${index}-`)) continue;
                  assert.ok(amount <= s.limits.perContract, `${contractId}: ${amount} > perContract`);
                  open += amount;
                }
                assert.equal(open, s.committed, 'the open commitments are the open holds');
              }
              await ledger.audit();
            }
          } finally {
            await ledger.close();
          }
        },
      ),
      { numRuns: NUM_RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
    );
  });
});
