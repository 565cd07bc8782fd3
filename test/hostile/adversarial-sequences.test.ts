// Property: whatever sequence of messages strangers, parties and the panel send — out of order,
// repeated, as Updates or as Signals, concurrently, at every status, with bad arguments — every contract
// still reaches a terminal status once its deadlines pass, holds nothing, leaves no Backup Agent seated,
// and the ledger's audit passes (each asset sums to zero, no transfer twice). Runs on the time-skipping
// server with the real ledger on SQLite. Bounded: HOSTILE_FC_RUNS (default 25); a failure prints
// fast-check's seed and path; rerun one with HOSTILE_FC_SEED=<seed> HOSTILE_FC_PATH=<path>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import fc from 'fast-check';
import { agentOwner } from '../../store/ledger';
import {
  acceptSignal,
  acceptUpdate,
  appealUpdate,
  approveSignal,
  approveUpdate,
  awardSignal,
  awardUpdate,
  cancelSignal,
  cancelUpdate,
  declineSignal,
  declineUpdate,
  deliverSignal,
  deliverUpdate,
  disputeSignal,
  disputeUpdate,
  eventsQuery,
  quoteSignal,
  quoteUpdate,
  voteSignal,
  voteUpdate,
  withdrawSignal,
  withdrawUpdate,
  type MessageReceipt,
} from '../../workflows/definitions';
import { isTerminal, type ContractStatus } from '../../workflows/rules/status';
import { VERDICTS } from '../../workflows/rules/verdicts';
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import { useWorkflowSuite, type Harness } from '../workflows/harness';
import {
  BA_BOND,
  BAS,
  CLIENT,
  ELIGIBILITY_STAKE,
  HOUR,
  OTHER,
  PANEL_FEE,
  POOR,
  STRANGER,
  WORKER,
} from '../support/fixtures';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { arbiterVerdictsUpdate } from '../../workflows/operator-messages';

const RUNS = Number(process.env.HOSTILE_FC_RUNS ?? 25);
const SEED = process.env.HOSTILE_FC_SEED ? Number(process.env.HOSTILE_FC_SEED) : undefined;
const PATH = process.env.HOSTILE_FC_PATH;
/** An Update that has not answered after this long froze the contract for its sender. */
const ANSWER_WITHIN_MS = 60_000;

const withHarness = useWorkflowSuite();

const ACTORS = [CLIENT, WORKER, OTHER, POOR, STRANGER, ...BAS] as const;

type MessageName =
  | 'accept'
  | 'decline'
  | 'cancel'
  | 'withdraw'
  | 'deliver'
  | 'approve'
  | 'dispute'
  | 'vote'
  | 'quote'
  | 'award';

/** Sends one message as an Update (answered) or a Signal (fire and forget), whatever its arguments. */
type Sender = (handle: WorkflowHandle, via: 'update' | 'signal', arg: unknown) => Promise<unknown>;

function sender<I>(update: UpdateDefinition<MessageReceipt, [I]>, signal: SignalDefinition<[I]>): Sender {
  return (handle, via, arg) =>
    via === 'signal' ? handle.signal(signal, arg as I) : handle.executeUpdate(update, { args: [arg as I] });
}

const MESSAGES: Record<MessageName, Sender> = {
  accept: sender(acceptUpdate, acceptSignal),
  decline: sender(declineUpdate, declineSignal),
  cancel: sender(cancelUpdate, cancelSignal),
  withdraw: sender(withdrawUpdate, withdrawSignal),
  deliver: sender(deliverUpdate, deliverSignal),
  approve: sender(approveUpdate, approveSignal),
  dispute: sender(disputeUpdate, disputeSignal),
  vote: sender(voteUpdate, voteSignal),
  quote: sender(quoteUpdate, quoteSignal),
  award: sender(awardUpdate, awardSignal),
};

const verdicts = fc.array(fc.constantFrom(...VERDICTS), { minLength: 0, maxLength: 3 });
const hex64 = fc.constantFrom('a'.repeat(64), 'b'.repeat(64), 'not-a-hash');

/** A message's arguments, well-formed or not: the workflow must refuse the bad ones and change nothing. */
const argsFor: Record<MessageName, fc.Arbitrary<Record<string, unknown>>> = {
  accept: fc.constant({}),
  decline: fc.constant({}),
  cancel: fc.constant({}),
  withdraw: fc.constant({}),
  approve: fc.constant({}),
  deliver: fc.record({
    uri: fc.constantFrom('https://store.example/d/1', ''),
    sha256: hex64,
    contentHash: hex64,
    confidence: fc.option(fc.constantFrom(0, 0.5, 1, -1, 2), { nil: undefined }),
  }),
  dispute: fc.record({ claims: fc.option(verdicts, { nil: undefined }) }),
  vote: fc.record({ votes: verdicts }),
  quote: fc.record({
    price: fc.constantFrom('0', '1', '9', '10', '1000000', '5000000', '5000001', '-3', 'x'),
    confidence: fc.option(fc.constantFrom(0, 0.7, 1, 3), { nil: undefined }),
  }),
  award: fc.record({ quoteId: fc.option(fc.constantFrom('q-0001', 'nope'), { nil: undefined }) }),
};

interface Step {
  actor: number;
  message: MessageName;
  args: Record<string, unknown>;
  via: 'update' | 'signal';
  /** Sent without waiting for its answer: the next steps race it. */
  concurrent: boolean;
  /** Test-server time moved forward after the step (deadlines may pass). */
  thenWaitMinutes: number;
}

/** Who would send a message in an honest flow: most steps use them, so sequences reach every status. */
const PLAUSIBLE: Record<MessageName, readonly number[]> = {
  accept: [1, 2],
  decline: [1],
  cancel: [0],
  withdraw: [1, 2],
  deliver: [1, 2],
  approve: [0],
  dispute: [0],
  vote: [5, 6, 7],
  quote: [1, 2, 3],
  award: [0],
};

/** Well-formed arguments for the plausible steps. */
const GOOD_ARGS: Record<MessageName, fc.Arbitrary<Record<string, unknown>>> = {
  ...argsFor,
  deliver: fc.constant({
    uri: 'https://store.example/d/1',
    sha256: 'a'.repeat(64),
    contentHash: 'b'.repeat(64),
  }),
  vote: fc.array(fc.constantFrom(...VERDICTS), { minLength: 2, maxLength: 2 }).map((votes) => ({ votes })),
  quote: fc.constantFrom('1000000', '2000000', '5000000').map((price) => ({ price })),
};

const messageName = fc.constantFrom(...(Object.keys(argsFor) as MessageName[]));
const timing = {
  via: fc.constantFrom('update' as const, 'update' as const, 'signal' as const),
  concurrent: fc.constantFrom(false, false, false, true),
  thenWaitMinutes: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 10, 45, 70),
};

const anyStep: fc.Arbitrary<Step> = messageName.chain((message) =>
  fc.record({
    actor: fc.nat({ max: ACTORS.length - 1 }),
    message: fc.constant(message),
    args: argsFor[message],
    ...timing,
  }),
);

const plausibleStep: fc.Arbitrary<Step> = messageName.chain((message) =>
  fc.record({
    actor: fc.constantFrom(...PLAUSIBLE[message]),
    message: fc.constant(message),
    args: GOOD_ARGS[message],
    ...timing,
  }),
);

const step = fc.oneof({ arbitrary: plausibleStep, weight: 2 }, { arbitrary: anyStep, weight: 1 });

const KINDS = {
  'fixed-direct': { contractType: 'fixed', awardMethod: 'direct', worker: WORKER },
  'fixed-open': { contractType: 'fixed', awardMethod: 'open', worker: undefined },
  auction: { contractType: 'auction', awardMethod: 'open', worker: undefined, amount: '5000000' },
} as const;

/** The honest flow of each kind: interleaved with the hostile steps, so sequences reach every status. */
const honest = (message: MessageName, actor: number, args: Record<string, unknown> = {}): Step => ({
  actor,
  message,
  args,
  via: 'update',
  concurrent: false,
  thenWaitMinutes: 0,
});
const GOOD_DELIVERY = {
  uri: 'https://store.example/d/1',
  sha256: 'a'.repeat(64),
  contentHash: 'b'.repeat(64),
};
const HONEST_START: Record<keyof typeof KINDS, Step[]> = {
  'fixed-direct': [honest('accept', 1), honest('deliver', 1, GOOD_DELIVERY)],
  'fixed-open': [honest('accept', 2), honest('deliver', 2, GOOD_DELIVERY)],
  auction: [
    honest('quote', 1, { price: '2000000' }),
    honest('award', 0),
    honest('deliver', 1, GOOD_DELIVERY),
  ],
};
const votes = (verdicts: string[][]) => verdicts.map((v, i) => honest('vote', 5 + i, { votes: v }));
const HONEST_END = {
  approve: () => [honest('approve', 0)],
  dispute: (v: string[][]) => [honest('dispute', 0), ...votes(v)],
  /** Standard mode: the panel drawn at delivery votes. */
  panel: (v: string[][]) => votes(v),
  silent: () => [],
};

const scenario = fc.record({
  kind: fc.constantFrom(...(Object.keys(KINDS) as Array<keyof typeof KINDS>)),
  verificationMode: fc.constantFrom('privacy-preserving' as const, 'standard' as const),
  ending: fc.constantFrom(...(Object.keys(HONEST_END) as Array<keyof typeof HONEST_END>)),
  panelVotes: fc.array(fc.array(fc.constantFrom(...VERDICTS), { minLength: 2, maxLength: 2 }), {
    minLength: 3,
    maxLength: 3,
  }),
  /** How many of the honest steps are sent at all. */
  honestSteps: fc.nat({ max: 8 }),
  hostile: fc.array(step, { minLength: 0, maxLength: 16 }),
  /** Where each honest step goes among the hostile ones (in order). */
  slots: fc.array(fc.nat({ max: 16 }), { minLength: 8, maxLength: 8 }),
});

type ScenarioValue = typeof scenario extends fc.Arbitrary<infer V> ? V : never;

/**
 * Honest flows with no hostile step, run before the random ones: each ends in its own terminal
 * status whatever the timing, so every run covers four ends even when the random draws (a fresh
 * seed each run) land on few.
 */
const honestOnly = (
  ending: ScenarioValue['ending'],
  honestSteps: number,
  panelVotes: ScenarioValue['panelVotes'] = [],
): [ScenarioValue] => [
  {
    kind: 'fixed-direct',
    verificationMode: 'privacy-preserving',
    ending,
    panelVotes,
    honestSteps,
    hostile: [],
    slots: [0, 0, 0, 0, 0, 0, 0, 0],
  },
];
const NOT_MET = ['not met', 'not met'] as const satisfies ScenarioValue['panelVotes'][number];
const EXAMPLES: Array<[ScenarioValue]> = [
  honestOnly('approve', 3), // accept, deliver, approve: settled, all met
  honestOnly('silent', 0), // nobody accepts: cancelled at the Acceptance Deadline
  honestOnly('silent', 1), // accepted, never delivered: cancelled-absent
  honestOnly('dispute', 6, [NOT_MET, NOT_MET, NOT_MET]), // a founded dispute: nothing met
];

/** The honest flow (cut short at `honestSteps`) woven into the hostile steps at the drawn slots. */
function sequenceOf(k: ScenarioValue): Step[] {
  const flow = [...HONEST_START[k.kind], ...HONEST_END[k.ending](k.panelVotes)].slice(0, k.honestSteps);
  const at = k.slots
    .slice(0, flow.length)
    .map((slot) => slot % (k.hostile.length + 1))
    .sort((a, b) => a - b);
  const out: Step[] = [];
  let next = 0;
  for (const [i, hostileStep] of [...k.hostile, null].entries()) {
    while (next < flow.length && at[next] === i) out.push(flow[next++]!);
    if (hostileStep !== null) out.push(hostileStep);
  }
  return out;
}

function withinAnswerTime<T>(what: string, promise: Promise<T>): Promise<T | 'refused'> {
  let timer: NodeJS.Timeout | undefined;
  const frozen = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    );
  });
  const answered = promise.then(
    (value) => value,
    (error: unknown) => {
      // A refusal is an answer; only a frozen call fails the property.
      if (error instanceof Error && /did not answer/.test(error.message)) throw error;
      return 'refused' as const;
    },
  );
  return Promise.race([answered, frozen]).finally(() => clearTimeout(timer));
}

/** Sends a step, as its actor or as `caller` when given (an agent outside ACTORS). */
function send(handle: WorkflowHandle, s: Step, caller: string = ACTORS[s.actor]!): Promise<unknown> {
  const arg = { caller, ...s.args };
  return withinAnswerTime(`${s.message} by ${caller}`, MESSAGES[s.message](handle, s.via, arg));
}

let round = 0;
/** Which terminal statuses the run reached: the sequences must reach more than the trivial ends. */
const reached = new Map<ContractStatus, number>();

async function runScenario(h: Harness, k: ScenarioValue): Promise<void> {
  round++;
  // Enough for every contract of the run, whatever the earlier ones left.
  for (const who of [CLIENT, WORKER, OTHER])
    await h.ledger.deposit({
      id: `hostile:${round}:${who}`,
      asset: 'USDC',
      to: agentOwner(who),
      amount: 20_000_000n,
    });
  // Each panel member may lose its seat's bond on every contract: top their stakes up so the
  // registry can always seat a panel (an unseatable one waits for the operator, never terminal alone).
  for (const ba of BAS) {
    const key = `hostile-${round}`;
    await h.ledger.deposit({ id: `${key}:${ba}`, asset: 'USDC', to: agentOwner(ba), amount: BA_BOND });
    await h.ledger.hold({
      id: `${key}:elig:${ba}`,
      owner: agentOwner(ba),
      asset: 'USDC',
      amount: BA_BOND,
      holdKind: 'eligibility',
    });
  }
  const input = await h.input({ ...KINDS[k.kind], verificationMode: k.verificationMode });
  const { handle } = await h.create(input);
  const pending: Array<Promise<unknown>> = [];
  for (const s of sequenceOf(k)) {
    const sent = send(handle, s);
    if (s.concurrent) pending.push(sent);
    else await sent;
    if (s.thenWaitMinutes > 0) await h.sleep(s.thenWaitMinutes * 60_000);
  }
  await Promise.all(pending);
  // Past every deadline the terms can hold (review at +4 h, the panel's voting window after it).
  await h.sleep(14 * 24 * HOUR);
  await arbiterIfAwaited(h, handle);
  const outcome = await handle.result();
  assert.ok(outcome.created, 'the contract was created');
  const status = outcome.status as ContractStatus;
  assert.ok(isTerminal(status), `not terminal: ${status}`);
  reached.set(status, (reached.get(status) ?? 0) + 1);
  await h.assertNothingPending(input.contractId);
  for (const ba of BAS)
    assert.deepEqual(await h.ledger.panels.openPanelsOf(ba), [], `${ba} still seated after ${status}`);
  await h.ledger.audit();
}

/**
 * A panel that stayed silent decides nothing (void rounds) and, with nobody left to draw, the operator
 * decides as trusted arbiter: silence never settles a contract by itself.
 */
async function arbiterIfAwaited(h: Harness, handle: WorkflowHandle): Promise<void> {
  const view = await h.view(handle);
  if (!view.awaitingArbiter) return;
  const verdicts = view.acceptanceCriteria.map(() => 'not met' as const);
  await handle.executeUpdate(arbiterVerdictsUpdate, { args: [{ verdicts }] });
}

test('any sequence of hostile messages ends terminal with nothing held and the ledger balanced', () =>
  withHarness(async (h) => {
    await h.makeEligible();
    await fc.assert(
      fc.asyncProperty(scenario, (k) => runScenario(h, k)),
      { numRuns: RUNS, seed: SEED, path: PATH, endOnFailure: true, examples: PATH ? [] : EXAMPLES },
    );
    console.log('terminal statuses reached:', Object.fromEntries(reached));
    if (PATH === undefined)
      assert.ok(reached.size >= 4, `the sequences reached only ${[...reached.keys()].join(', ')}`);
  }));

// Bait bidders that move their money, a poor Client that deposits mid-contract, parties whose locks
// fail: whatever they do, the honest Client's next step succeeds — its award matches (a quote holds
// its bond, so a match never fails for funds), and its dispute, refused while it is short of the
// bond, is taken once it deposits (its own failures never lock it out).
const BAIT_RUNS = Number(process.env.HOSTILE_FC_RUNS ?? 8);
const FLOOR = 100_000n;
const bondOf = (price: bigint) => {
  const share = (price * 1000n) / 10_000n;
  return share > FLOOR ? share : FLOOR;
};

const baitScenario = fc.record({
  bidders: fc.array(
    fc.record({
      funds: fc.constantFrom(0n, 50_000n, 100_000n, 300_000n, 5_000_000n),
      price: fc.constantFrom(1n, 1_000_000n, 2_000_000n, 3_000_000n, 5_000_000n),
      moveMoney: fc.boolean(),
      requote: fc.option(fc.constantFrom(1n, 4_000_000n), { nil: undefined }),
    }),
    { minLength: 0, maxLength: 3 },
  ),
  pick: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
  clientFailures: fc.nat({ max: 4 }),
});
type BaitScenario = typeof baitScenario extends fc.Arbitrary<infer V> ? V : never;

let baitRound = 0;
const fresh = (i: number) => `0x${(0xba000000 + baitRound * 16 + i).toString(16).padStart(40, '0')}`;

async function usdcOf(h: Harness, who: string) {
  const b = await h.ledger.balances(agentOwner(who));
  return [b.USDC.available, b.USDC.held] as const;
}

async function runBaitScenario(h: Harness, k: BaitScenario): Promise<void> {
  baitRound++;
  // The Client starts each run with exactly the budget cap available: short of any Dispute Bond.
  const [spare] = await usdcOf(h, CLIENT);
  if (spare > 0n) {
    await h.ledger.withdraw({
      id: `bait:${baitRound}:out`,
      asset: 'USDC',
      from: agentOwner(CLIENT),
      amount: spare,
    });
  }
  await h.ledger.deposit({
    id: `bait:${baitRound}:in`,
    asset: 'USDC',
    to: agentOwner(CLIENT),
    amount: 5_000_000n,
  });
  const input = await h.input({ ...KINDS.auction, verificationMode: 'privacy-preserving' });
  const { handle } = await h.create(input);
  const live = new Map<string, bigint>();
  for (const [i, bidder] of k.bidders.entries()) {
    const who = fresh(i);
    if (bidder.funds > 0n) {
      await h.ledger.deposit({
        id: `bait:${baitRound}:${i}`,
        asset: 'USDC',
        to: agentOwner(who),
        amount: bidder.funds,
      });
    }
    const quote = (price: bigint) => send(handle, honest('quote', 0, { price: price.toString() }), who);
    const first = await quote(bidder.price);
    assert.equal(
      first !== 'refused',
      bidder.funds >= bondOf(bidder.price),
      `${who} quote of ${bidder.price}`,
    );
    if (first !== 'refused') live.set(who, bondOf(bidder.price));
    if (bidder.moveMoney) {
      const [available] = await usdcOf(h, who);
      if (available > 0n) {
        await h.ledger.withdraw({
          id: `bait:${baitRound}:${i}:out`,
          asset: 'USDC',
          from: agentOwner(who),
          amount: available,
        });
      }
    }
    if (bidder.requote !== undefined) {
      const [available] = await usdcOf(h, who);
      const fundable = available + (live.get(who) ?? 0n) >= bondOf(bidder.requote);
      const again = await quote(bidder.requote);
      assert.equal(again !== 'refused', fundable, `${who} replacement of ${bidder.requote}`);
      if (again !== 'refused') live.set(who, bondOf(bidder.requote));
    }
    // A bidder's live bond is held, whatever it did with the rest of its money.
    assert.equal((await usdcOf(h, who))[1], live.get(who) ?? 0n, `${who} holds its bond`);
  }

  const view = await h.view(handle);
  assert.equal(view.quotes.length, live.size);
  if (live.size === 0) {
    await h.sleep(14 * 24 * HOUR);
    assert.deepEqual(await handle.result(), {
      created: true,
      status: 'cancelled-unmatched',
      contractId: input.contractId,
    });
  } else {
    const picked = k.pick === undefined ? undefined : view.quotes[k.pick % view.quotes.length]!;
    const awarded = await send(handle, honest('award', 0, picked ? { quoteId: picked.quoteId } : {}));
    assert.notEqual(awarded, 'refused', 'the Client’s award matches');
    const matched = await h.view(handle);
    assert.equal(matched.status, 'matched');
    const winner = matched.worker!;
    assert.equal(matched.workerStake, live.get(winner)!.toString());
    for (const [who, bond] of live) assert.equal((await usdcOf(h, who))[1], who === winner ? bond : 0n);
    assert.notEqual(await send(handle, honest('deliver', 0, GOOD_DELIVERY), winner), 'refused');
    // The Client spends the refund above the winning price: it is short of the Dispute Bond.
    const [refund] = await usdcOf(h, CLIENT);
    if (refund > 0n) {
      await h.ledger.withdraw({
        id: `bait:${baitRound}:refund`,
        asset: 'USDC',
        from: agentOwner(CLIENT),
        amount: refund,
      });
    }
    // A Dispute Bond that rounds to 0 (a winning price under 20 minor units) is no hold: nothing to fail.
    // The Dispute Bond and the panel fee it brings, held together.
    const bond = (BigInt(matched.price!) * 500n) / 10_000n + PANEL_FEE;
    for (let i = 0; i < k.clientFailures; i++) {
      assert.equal(await send(handle, honest('dispute', 0)), 'refused', 'short of the bond');
    }
    await h.ledger.deposit({
      id: `bait:${baitRound}:bond`,
      asset: 'USDC',
      to: agentOwner(CLIENT),
      amount: bond,
    });
    assert.notEqual(
      await send(handle, honest('dispute', 0)),
      'refused',
      'the Client’s dispute once it deposits',
    );
    assert.equal((await h.view(handle)).status, 'disputed');
    await h.sleep(14 * 24 * HOUR);
    await arbiterIfAwaited(h, handle);
  }
  const outcome = await handle.result();
  assert.ok(outcome.created && isTerminal(outcome.status as ContractStatus), JSON.stringify(outcome));
  await h.assertNothingPending(input.contractId);
  for (const i of k.bidders.keys()) assert.equal((await usdcOf(h, fresh(i)))[1], 0n);
  await h.ledger.audit();
}

test('bait bidders, poor Clients and failed locks never stop the honest Client', () =>
  withHarness(async (h) => {
    await h.makeEligible();
    await fc.assert(
      fc.asyncProperty(baitScenario, (k) => runBaitScenario(h, k)),
      { numRuns: BAIT_RUNS, seed: SEED, endOnFailure: true },
    );
  }));

// Quote floods at a full cap: 100 junk bidders fill an auction's cap, then a flood of newcomers and
// replacements arrives concurrently at random prices. Whatever the order, the cap never refuses a
// quote better than the worst standing one, the standing quotes are always the best of what was taken,
// every replaced bidder has its bond back at once, the Client's award matches the best quote, and the
// ledger balances with nothing held at the end.
const FLOOD_RUNS = Number(process.env.HOSTILE_FC_RUNS ?? 3);
const CAP = 100;

const floodScenario = fc.record({
  junkPrices: fc.array(fc.integer({ min: 1_000, max: 5_000 }), { minLength: CAP, maxLength: CAP }),
  flood: fc.array(
    fc.record({
      price: fc.integer({ min: 500, max: 5_500 }),
      confidence: fc.option(fc.constantFrom(0, 0.5, 1), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 30 },
  ),
  concurrency: fc.constantFrom(1, 4, 10),
});
type FloodScenario = typeof floodScenario extends fc.Arbitrary<infer V> ? V : never;

let floodRound = 0;
const flooder = (i: number) => `0x${(0xf1000000 + floodRound * 256 + i).toString(16).padStart(40, '0')}`;
/** Prices in hundreds of minor units (at most 0.55 USDC): every bond is the floor, so each bidder funds exactly one. */
const UNIT = 100n;

async function runFloodScenario(h: Harness, k: FloodScenario): Promise<void> {
  floodRound++;
  const input = await h.input({ ...KINDS.auction, verificationMode: 'privacy-preserving' });
  const { handle } = await h.create(input);
  for (let i = 0; i <= CAP + 30; i++) {
    await h.ledger.deposit({
      id: `flood:${floodRound}:${i}`,
      asset: 'USDC',
      to: agentOwner(flooder(i)),
      amount: FLOOR,
    });
  }
  const quote = (i: number, price: number, confidence?: number) =>
    send(
      handle,
      honest('quote', 0, {
        price: (BigInt(price) * UNIT).toString(),
        ...(confidence === undefined ? {} : { confidence }),
      }),
      flooder(i),
    );
  for (const [i, price] of k.junkPrices.entries()) assert.notEqual(await quote(i, price), 'refused');
  assert.equal((await h.view(handle)).quotes.length, CAP);

  const answers: unknown[] = new Array(k.flood.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: k.concurrency }, async () => {
      while (next < k.flood.length) {
        const n = next++;
        const q = k.flood[n]!;
        // Newcomers only: each displacement then lowers (never raises) the worst standing quote.
        answers[n] = await quote(CAP + n, q.price, q.confidence);
      }
    }),
  );

  const view = await h.view(handle);
  assert.ok(view.quotes.length <= CAP);
  const standing = new Set(view.quotes.map((q: { bidder: string }) => q.bidder));
  // Every bidder without a standing quote holds nothing; every standing one exactly its bond.
  for (let i = 0; i <= CAP + 30; i++) {
    const [available, held] = await usdcOf(h, flooder(i));
    assert.deepEqual([available, held], standing.has(flooder(i)) ? [0n, FLOOR] : [FLOOR, 0n], flooder(i));
  }
  // A refused newcomer was no better than every standing quote: the cap kept the best ones.
  const worst = view.quotes.reduce(
    (w: bigint, q: { price: string }) => (BigInt(q.price) > w ? BigInt(q.price) : w),
    0n,
  );
  for (const [n, q] of k.flood.entries()) {
    if (answers[n] !== 'refused') continue;
    assert.ok(
      BigInt(q.price) * UNIT >= worst || view.quotes.length < CAP,
      `refused ${q.price} below the worst ${worst}`,
    );
  }
  const best = [...view.quotes].sort((a: { price: string }, b: { price: string }) =>
    Number(BigInt(a.price) - BigInt(b.price)),
  )[0]!;
  assert.notEqual(await send(handle, honest('award', 0)), 'refused', 'the Client’s award matches');
  const matched = await h.view(handle);
  assert.equal(matched.status, 'matched');
  assert.equal(matched.price, best.price);
  await h.sleep(14 * 24 * HOUR);
  const outcome = await handle.result();
  assert.ok(outcome.created && isTerminal(outcome.status as ContractStatus), JSON.stringify(outcome));
  await h.assertNothingPending(input.contractId);
  for (let i = 0; i <= CAP + 30; i++) assert.equal((await usdcOf(h, flooder(i)))[1], 0n);
  await h.ledger.audit();
}

test('quote floods at a full cap: a better quote always gets in, the replaced bonds come back, the ledger balances', () =>
  withHarness(async (h) => {
    await h.makeEligible();
    await fc.assert(
      fc.asyncProperty(floodScenario, (k) => runFloodScenario(h, k)),
      { numRuns: FLOOD_RUNS, seed: SEED, endOnFailure: true },
    );
  }));

// Seat pinning: an attacker's two keys open junk contracts (standard mode, or disputed) at a price of
// one micro-unit to hold the seats of a small registry, while honest contracts wait for a panel. The
// registry's BAs vote on some junk panels and stay silent on others, the attacker waives or sits out
// each appeal window. Whatever the mix, every contract ends terminal with nothing held and no seat
// left, the waiting contracts are seated in the order they started waiting, the honest parties'
// votes and waivers are all taken, every decided junk panel cost the attacker its fee per seat, and
// the ledger balances.
const PIN_RUNS = Number(process.env.HOSTILE_FC_RUNS ?? 4);
/** Each of the 3 BAs holds two seats: the registry seats two panels at once. */
const PIN_PARAMS = { ...DEFAULT_PARAMS, baBond: ELIGIBILITY_STAKE / 2n };
const ATTACKER_CLIENT = `0x${'f1'.repeat(20)}`;
const ATTACKER_WORKER = `0x${'f2'.repeat(20)}`;

const pinScenario = fc.record({
  junk: fc.array(
    fc.record({
      dispute: fc.boolean(),
      /** The registry's BAs vote on this junk panel, or leave every round of it silent. */
      voted: fc.boolean(),
      /** The attacker waives its appeal window, or sits it out to keep the seats. */
      waives: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  honest: fc.integer({ min: 1, max: 3 }),
  /** Test-server hours between rounds of votes and waivers. */
  tickHours: fc.constantFrom(6, 20),
});
type PinScenario = typeof pinScenario extends fc.Arbitrary<infer V> ? V : never;

interface Pinned {
  handle: WorkflowHandle;
  contractId: string;
  client: string;
  worker: string;
  junk: boolean;
  voted: boolean;
  waives: boolean;
}

let pinRound = 0;
const pinStats = { waited: 0, seatedAfterWaiting: 0, junkDecidedByPanel: 0 };
async function runPinScenario(h: Harness, k: PinScenario): Promise<void> {
  pinRound++;
  // Silent seats lose their bond: each BA's eligibility stake is brought back to a whole one.
  for (const ba of BAS) {
    const short = ELIGIBILITY_STAKE - (await usdcOf(h, ba))[1];
    if (short === 0n) continue;
    await h.ledger.deposit({ id: `pin:${pinRound}:${ba}`, asset: 'USDC', to: agentOwner(ba), amount: short });
    await h.ledger.hold({
      id: `pin:${pinRound}:elig:${ba}`,
      owner: agentOwner(ba),
      asset: 'USDC',
      amount: short,
      holdKind: 'eligibility',
    });
  }
  for (const who of [CLIENT, WORKER, ATTACKER_CLIENT, ATTACKER_WORKER])
    await h.ledger.deposit({
      id: `pin:${pinRound}:${who}`,
      asset: 'USDC',
      to: agentOwner(who),
      amount: 20_000_000n,
    });
  const attackerBefore = (await usdcOf(h, ATTACKER_CLIENT))[0] + (await usdcOf(h, ATTACKER_WORKER))[0];
  const contracts: Pinned[] = [];
  const open = async (client: string, worker: string, body: Record<string, unknown>) => {
    const input = await h.input(
      { ...KINDS['fixed-direct'], worker: worker as `0x${string}`, ...body },
      PIN_PARAMS,
      client,
    );
    const { handle } = await h.create(input);
    assert.notEqual(await send(handle, honest('accept', 0), worker), 'refused');
    assert.notEqual(await send(handle, honest('deliver', 0, GOOD_DELIVERY), worker), 'refused');
    return { handle, contractId: input.contractId };
  };
  for (const j of k.junk) {
    const opened = await open(ATTACKER_CLIENT, ATTACKER_WORKER, {
      amount: '1',
      verificationMode: j.dispute ? 'privacy-preserving' : 'standard',
    });
    if (j.dispute)
      assert.notEqual(await send(opened.handle, honest('dispute', 0), ATTACKER_CLIENT), 'refused');
    contracts.push({ ...opened, client: ATTACKER_CLIENT, worker: ATTACKER_WORKER, junk: true, ...j });
  }
  for (let i = 0; i < k.honest; i++) {
    const opened = await open(CLIENT, WORKER, { verificationMode: 'standard' });
    contracts.push({ ...opened, client: CLIENT, worker: WORKER, junk: false, voted: true, waives: true });
  }
  // The waiting order as the ledger keeps it (who started waiting first).
  const waiting = (await h.ledger.panels.waitlist()).map((e) => e.contractId);
  pinStats.waited += waiting.length;

  const votedOn = new Set<string>();
  const waived = new Set<string>();
  for (let tick = 0; tick < 10; tick++) {
    for (const c of contracts) {
      const v = await h.view(c.handle);
      if (isTerminal(v.status)) continue;
      const round = `${c.contractId}:${v.voting?.drawnAt}`;
      if (v.voting !== null && !v.voting.tallied && c.voted && !votedOn.has(round)) {
        votedOn.add(round);
        for (const ba of v.backupAgents) {
          const answer = await send(c.handle, honest('vote', 0, { votes: ['met', 'met'] }), ba);
          if (!c.junk) assert.notEqual(answer, 'refused', `${ba}'s vote on an honest panel`);
        }
      }
      if (v.status === 'resolved' && v.appealDeadline !== null && c.waives && !waived.has(c.contractId)) {
        waived.add(c.contractId);
        for (const who of [c.client, c.worker]) {
          const answer = await withinAnswerTime(
            `waiver by ${who}`,
            c.handle.executeUpdate(appealUpdate, { args: [{ caller: who, waive: true }] }),
          );
          if (!c.junk) assert.notEqual(answer, 'refused', `${who}'s waiver`);
        }
      }
    }
    await h.sleep(k.tickHours * HOUR);
  }
  await h.sleep(14 * 24 * HOUR);

  // Every arbiter first: waiting on one contract's result lets the test server skip time past
  // contracts that wait on nothing but the operator.
  for (const c of contracts) await arbiterIfAwaited(h, c.handle);
  const drawnAt = new Map<string, number>();
  for (const c of contracts) {
    const outcome = await c.handle.result();
    assert.ok(outcome.created && isTerminal(outcome.status as ContractStatus), JSON.stringify(outcome));
    await h.assertNothingPending(c.contractId);
    const firstDraw = (await c.handle.query(eventsQuery)).find((e) => e.type === 'contract.panel-drawn');
    if (firstDraw !== undefined) drawnAt.set(c.contractId, Date.parse(firstDraw.at));
    if (!c.junk)
      assert.ok(outcome.status.startsWith('settled-'), `an honest contract ended ${outcome.status}`);
  }
  // Seated in waiting order: of the contracts that waited, each one seated no later than those behind it.
  const seatedInOrder = waiting.filter((id) => drawnAt.has(id)).map((id) => drawnAt.get(id)!);
  for (let i = 1; i < seatedInOrder.length; i++)
    assert.ok(seatedInOrder[i - 1]! <= seatedInOrder[i]!, `seated out of order: ${seatedInOrder.join(',')}`);
  assert.deepEqual(await h.ledger.panels.waitlist(), []);
  for (const ba of BAS) assert.deepEqual(await h.ledger.panels.openPanelsOf(ba), [], `${ba} still seated`);

  // Every junk contract a panel decided cost the attacker the fee of its three seats, never less.
  let decidedByPanel = 0n;
  for (const c of contracts.filter((x) => x.junk)) {
    const resolved = (await c.handle.query(eventsQuery)).find((e) => e.type === 'contract.resolved');
    if (resolved?.type === 'contract.resolved' && resolved.source === 'panel-tally') decidedByPanel++;
  }
  const [ac, aw] = [await usdcOf(h, ATTACKER_CLIENT), await usdcOf(h, ATTACKER_WORKER)];
  assert.deepEqual([ac[1], aw[1]], [0n, 0n]);
  const spent = attackerBefore - ac[0] - aw[0];
  assert.ok(spent >= decidedByPanel * PANEL_FEE, `spent ${spent} for ${decidedByPanel} decided panels`);
  pinStats.junkDecidedByPanel += Number(decidedByPanel);
  pinStats.seatedAfterWaiting += seatedInOrder.length;
  await h.ledger.audit();
}

test('seat pinning: junk panels, silent or not, never seat honest contracts out of order nor leave money held', () =>
  withHarness(async (h) => {
    await h.makeEligible();
    await fc.assert(
      fc.asyncProperty(pinScenario, (k) => runPinScenario(h, k)),
      { numRuns: PIN_RUNS, seed: SEED, endOnFailure: true },
    );
    console.log('seat pinning:', pinStats);
  }));
