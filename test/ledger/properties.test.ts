// Property: for random sequences of operations, each randomly repeated (a retried activity) and
// randomly cut off after its commit and before its reply (a worker that died; the caller retries),
// every answer matches an independent model, every balance equals the model's, and every invariant
// holds. A failure prints fast-check's seed and path; rerun one with LEDGER_FC_SEED=<seed>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ASSETS, HOLD_KINDS, LedgerError, agentOwner, openLedger } from '../../store/ledger';
import type { Asset, HoldKind, Ledger, LedgerOp, Owner } from '../../store/ledger';
import { LedgerModel } from './model';
import type { Outcome } from './model';
import { describeEachStore } from './stores';

const NUM_RUNS = Number(process.env.LEDGER_FC_RUNS ?? 50);
const SEED = process.env.LEDGER_FC_SEED ? Number(process.env.LEDGER_FC_SEED) : undefined;

const AGENTS: Owner[] = ['0x' + '1'.repeat(40), '0x' + '2'.repeat(40), '0x' + '3'.repeat(40)].map(agentOwner);
const PARTIES: Owner[] = [...AGENTS, 'treasury'];

// ---- commands: abstract steps, turned into operations against the state at the time they run ----

type Simple =
  | { t: 'deposit'; who: number; amount: bigint }
  | { t: 'withdraw'; who: number; amount: bigint }
  | { t: 'transfer'; from: number; to: number; amount: bigint; asset: Asset }
  | { t: 'mint'; who: number; amount: bigint }
  | { t: 'hold'; who: number; amount: bigint; kind: HoldKind; asset: Asset }
  | { t: 'resolve'; pick: number; weights: Array<[number, number]>; off: boolean }
  | { t: 'void'; pick: number };

type Command =
  | { t: 'one'; step: Simple }
  | { t: 'batch'; steps: Simple[] }
  | { t: 'reuse'; pick: number; change: boolean };

interface Attempts {
  repeats: number;
  cutOff: boolean;
}

const amount = (max: number) => fc.bigInt({ min: 1n, max: BigInt(max) });
const party = fc.nat({ max: PARTIES.length - 1 });
const agent = fc.nat({ max: AGENTS.length - 1 });

const simple: fc.Arbitrary<Simple> = fc.oneof(
  {
    arbitrary: fc.record({ t: fc.constant('deposit' as const), who: agent, amount: amount(1000) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ t: fc.constant('withdraw' as const), who: agent, amount: amount(600) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      t: fc.constant('transfer' as const),
      from: party,
      to: party,
      amount: amount(600),
      asset: fc.constantFrom(...ASSETS),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ t: fc.constant('mint' as const), who: party, amount: amount(500) }), weight: 1 },
  {
    arbitrary: fc.record({
      t: fc.constant('hold' as const),
      who: party,
      amount: amount(600),
      kind: fc.constantFrom(...HOLD_KINDS),
      asset: fc.constantFrom<Asset>('USDC', 'USDC', 'OCT'),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      t: fc.constant('resolve' as const),
      pick: fc.nat(),
      // [recipient (a party, or PARTIES.length = the hold's owner), weight]
      weights: fc.array(fc.tuple(fc.nat({ max: PARTIES.length }), fc.nat({ max: 5 })), {
        minLength: 1,
        maxLength: 4,
      }),
      off: fc.nat({ max: 9 }).map((r) => r === 0), // one resolve in ten misses the hold by one
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ t: fc.constant('void' as const), pick: fc.nat() }), weight: 2 },
);

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: simple.map((step) => ({ t: 'one' as const, step })), weight: 6 },
  {
    arbitrary: fc
      .array(simple, { minLength: 2, maxLength: 4 })
      .map((steps) => ({ t: 'batch' as const, steps })),
    weight: 2,
  },
  {
    arbitrary: fc.record({ t: fc.constant('reuse' as const), pick: fc.nat(), change: fc.boolean() }),
    weight: 1,
  },
);

const attempts: fc.Arbitrary<Attempts> = fc.record({
  repeats: fc.nat({ max: 2 }),
  cutOff: fc.boolean(),
});

type Scenario = Array<[Command, Attempts]>;

interface KnownHold {
  id: string;
  owner: Owner;
  amount: bigint;
}

function toOp(step: Simple, id: string, holds: KnownHold[]): LedgerOp {
  // One pick in eight names a hold that does not exist.
  const pickHold = (pick: number) =>
    holds.length === 0 || pick % 8 === 7 ? undefined : holds[pick % holds.length];
  switch (step.t) {
    case 'deposit':
      return { kind: 'deposit', id, asset: 'USDC', to: AGENTS[step.who]!, amount: step.amount };
    case 'withdraw':
      return { kind: 'withdraw', id, asset: 'USDC', from: AGENTS[step.who]!, amount: step.amount };
    case 'transfer': {
      const from = PARTIES[step.from]!;
      const to = PARTIES[step.to === step.from ? (step.to + 1) % PARTIES.length : step.to]!;
      return { kind: 'transfer', id, asset: step.asset, from, to, amount: step.amount };
    }
    case 'mint':
      return { kind: 'mint', id, asset: 'OCT', to: PARTIES[step.who]!, amount: step.amount };
    case 'hold': {
      const op: LedgerOp = {
        kind: 'hold',
        id,
        owner: PARTIES[step.who]!,
        asset: step.asset,
        amount: step.amount,
        holdKind: step.kind,
      };
      if (step.kind !== 'eligibility') op.contractId = `c${step.who}`;
      holds.push({ id, owner: op.owner, amount: op.amount });
      return op;
    }
    case 'void':
      return { kind: 'void', id, holdId: pickHold(step.pick)?.id ?? 'no-such-hold' };
    case 'resolve': {
      const hold = pickHold(step.pick);
      if (!hold)
        return { kind: 'resolve', id, holdId: 'no-such-hold', parts: [{ to: 'treasury', amount: 1n }] };
      const total = BigInt(step.weights.reduce((s, [, w]) => s + w, 0)) || 1n;
      const parts = step.weights.map(([r, w]) => ({
        to: r === PARTIES.length ? hold.owner : PARTIES[r]!,
        amount: (hold.amount * BigInt(w)) / total,
      }));
      const last = parts[parts.length - 1]!;
      last.amount += hold.amount - parts.reduce((s, p) => s + p.amount, 0n);
      if (step.off) last.amount += last.amount > 0n ? -1n : 1n;
      return { kind: 'resolve', id, holdId: hold.id, parts };
    }
  }
}

function withAmount(op: LedgerOp, delta: bigint): LedgerOp {
  if ('amount' in op) return { ...op, amount: op.amount + delta };
  if (op.kind === 'resolve') return { ...op, parts: [{ to: 'treasury', amount: 1n }] };
  return { ...op, holdId: `${op.holdId}-other` };
}

async function call(ledger: Ledger, ops: LedgerOp[], asBatch: boolean): Promise<Outcome> {
  try {
    const results = asBatch ? await ledger.batch(ops) : [await callOne(ledger, ops[0]!)];
    return { replayed: results.map((r) => r.replayed) };
  } catch (error) {
    if (error instanceof LedgerError) return { code: error.code };
    throw error;
  }
}

function callOne(ledger: Ledger, op: LedgerOp) {
  const { kind, ...input } = op;
  switch (kind) {
    case 'deposit':
      return ledger.deposit(input as Parameters<Ledger['deposit']>[0]);
    case 'withdraw':
      return ledger.withdraw(input as Parameters<Ledger['withdraw']>[0]);
    case 'transfer':
      return ledger.transfer(input as Parameters<Ledger['transfer']>[0]);
    case 'hold':
      return ledger.hold(input as Parameters<Ledger['hold']>[0]);
    case 'resolve':
      return ledger.resolve(input as Parameters<Ledger['resolve']>[0]);
    case 'void':
      return ledger.voidHold(input as Parameters<Ledger['voidHold']>[0]);
    case 'mint':
      return ledger.mint(input as Parameters<Ledger['mint']>[0]);
  }
}

/** Outcomes seen across all runs, so the test proves the generator reached every path. */
type Seen = Map<string, number>;

function record(seen: Seen, outcome: Outcome): void {
  const names =
    'code' in outcome ? [outcome.code] : outcome.replayed.map((r) => (r ? 'replayed' : 'applied'));
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
}

async function runScenario(ledger: Ledger, commands: Scenario, seen: Seen): Promise<void> {
  const model = new LedgerModel();
  const funding: LedgerOp[] = AGENTS.flatMap((to, i): LedgerOp[] => [
    { kind: 'deposit', id: `fund${i}`, asset: 'USDC', to, amount: 2000n },
    { kind: 'mint', id: `reward${i}`, asset: 'OCT', to, amount: 1000n },
  ]);
  assert.deepEqual(await call(ledger, funding, true), model.apply(funding));
  const issued: LedgerOp[] = [];
  for (const [i, [cmd, tries]] of commands.entries()) {
    // Holds the model knows (resolved ones included); a batch adds the ones it opens itself.
    const holds: KnownHold[] = [...model.holds].map(([id, h]) => ({ id, owner: h.owner, amount: h.amount }));
    let ops: LedgerOp[];
    if (cmd.t === 'one') ops = [toOp(cmd.step, `op${i}`, holds)];
    else if (cmd.t === 'batch') ops = cmd.steps.map((s, j) => toOp(s, `op${i}.${j}`, holds));
    else {
      const earlier = issued[cmd.pick % Math.max(issued.length, 1)];
      if (!earlier) continue;
      ops = [cmd.change ? withAmount(earlier, 1n) : earlier];
    }
    issued.push(...ops);
    const asBatch = cmd.t === 'batch';
    const total = Math.max(1 + tries.repeats, tries.cutOff ? 2 : 1);
    for (let attempt = 0; attempt < total; attempt++) {
      const expected = model.apply(ops);
      const actual = await call(ledger, ops, asBatch);
      record(seen, actual);
      if (attempt === 0 && tries.cutOff) continue; // the reply was lost; only the retry is seen
      assert.deepEqual(
        actual,
        expected,
        `step ${i} attempt ${attempt}: ${JSON.stringify(ops, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`,
      );
    }
  }

  for (const owner of [...PARTIES, 'mint' as const]) {
    const balances = await ledger.balances(owner);
    for (const asset of ASSETS) {
      assert.deepEqual(
        balances[asset],
        { available: model.available(owner, asset), held: model.heldBy(owner, asset) },
        `${owner} ${asset}`,
      );
    }
  }
  for (const [id, hold] of model.holds) {
    const stored = await ledger.getHold(id);
    assert.equal(stored?.status, hold.resolved ? 'resolved' : 'open', `hold ${id}`);
    assert.equal(stored?.amount, hold.amount, `hold ${id}`);
  }
  const report = await ledger.audit();
  for (const asset of ASSETS) {
    assert.equal(report.assets[asset].sum, 0n);
    assert.equal(report.assets[asset].mint, model.posting('mint', asset));
  }
  assert.equal(report.openHolds, [...model.holds.values()].filter((h) => !h.resolved).length);
}

const scenario = fc.array(fc.tuple(command, attempts), { minLength: 5, maxLength: 30, size: 'max' });

const once: Attempts = { repeats: 0, cutOff: false };
const retried: Attempts = { repeats: 1, cutOff: true };

/** Run before the random ones on every seed: one scenario that reaches every outcome the test counts. */
const EVERY_PATH: Scenario = [
  [{ t: 'one', step: { t: 'hold', who: 0, amount: 100n, kind: HOLD_KINDS[0], asset: 'USDC' } }, retried],
  [{ t: 'one', step: { t: 'resolve', pick: 0, weights: [[3, 1]], off: true } }, once], // PartsMismatch
  [{ t: 'one', step: { t: 'resolve', pick: 0, weights: [[3, 1]], off: false } }, once],
  [{ t: 'one', step: { t: 'void', pick: 0 } }, once], // HoldAlreadyResolved
  [{ t: 'one', step: { t: 'void', pick: 7 } }, once], // HoldNotFound
  [{ t: 'one', step: { t: 'withdraw', who: 1, amount: 5000n } }, once], // InsufficientFunds
  [{ t: 'reuse', pick: 0, change: true }, once], // IdempotencyConflict
];

describeEachStore('ledger properties', (store) => {
  test(`random retried and cut-off operations match the model (${NUM_RUNS} runs)`, async (t) => {
    const seed = SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
    t.diagnostic(`fast-check seed: ${seed} (rerun with LEDGER_FC_SEED=${seed})`);
    const seen: Seen = new Map();
    await fc.assert(
      fc.asyncProperty(scenario, async (commands) => {
        const ledger = await openLedger(store.newConfig());
        try {
          await runScenario(ledger, commands, seen);
        } finally {
          await ledger.close();
        }
      }),
      { numRuns: NUM_RUNS, seed, examples: [[EVERY_PATH]] },
    );
    t.diagnostic(`outcomes: ${JSON.stringify(Object.fromEntries(seen))}`);
    const paths = [
      'applied',
      'replayed',
      'InsufficientFunds',
      'IdempotencyConflict',
      'HoldNotFound',
      'HoldAlreadyResolved',
      'PartsMismatch',
    ];
    for (const path of paths)
      assert.ok(seen.has(path), `no run reached ${path}: ${JSON.stringify(Object.fromEntries(seen))}`);
  });
});
