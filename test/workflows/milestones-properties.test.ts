// Property test of contracts with milestones on the time-skipping server with the real ledger
// (docs/protocol.md §6a): random plans (2 to 4 milestones, random shares and prices) and a random outcome
// per milestone — approved, changes requested then approved, left to the review timeout, disputed with
// random panel votes (and the appeal window left to pass), or the Worker absent (which ends the rest).
// Checks, per run: USDC conserved and the ledger's audit passing; nothing held by the Client or the
// Worker at the end; every milestone's payment the §7a formula on its own amount; the Worker paid
// exactly the sum of its milestones' payments, its stake slashed exactly by the none-met and absent
// milestones' shares; the final status the milestones' summary. Bounded: FC_RUNS (default 6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  acceptUpdate,
  approveUpdate,
  deliverUpdate,
  disputeUpdate,
  requestChangesUpdate,
  voteUpdate,
  type ContractOutcome,
} from '../../workflows/definitions';
import { agentOwner } from '../../store/ledger';
import { workerStakeFor } from '../../workflows/rules/holds';
import {
  milestoneAmounts,
  milestonesFinalStatus,
  milestoneStakeShares,
} from '../../workflows/rules/milestones';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { countVerdicts, VERDICTS, type Verdict } from '../../workflows/rules/verdicts';
import { bps } from '../../workflows/rules/money';
import { BAS, CLIENT, HOUR } from '../support/fixtures';
import { delivery, useWorkflowSuite } from './harness';
import { send, started } from './scenarios';

const RUNS = Number(process.env.FC_RUNS ?? 6);
const withHarness = useWorkflowSuite();

type Outcome = 'approve' | 'revise' | 'timeout' | 'dispute' | 'absent';

const caseArb = fc.integer({ min: 2, max: 4 }).chain((n) =>
  fc.record({
    price: fc.bigInt({ min: 100n, max: 5_000_000n }),
    weights: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: n, maxLength: n }),
    outcomes: fc.array(fc.constantFrom<Outcome>('approve', 'revise', 'timeout', 'dispute', 'absent'), {
      minLength: n,
      maxLength: n,
    }),
    votes: fc.array(fc.array(fc.constantFrom(...VERDICTS), { minLength: 2, maxLength: 2 }), {
      minLength: 3 * n,
      maxLength: 3 * n,
    }),
  }),
);

/** Shares in basis points from weights, summing to 10000 (the last the rest). */
function sharesOf(weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  const shares = weights.slice(0, -1).map((w) => Math.max(1, Math.floor((w * 10_000) / total)));
  return [...shares, 10_000 - shares.reduce((s, x) => s + x, 0)];
}

/** §7a on one milestone's own amount. */
function paymentOf(amount: bigint, criteriaMet: readonly Verdict[]): bigint {
  const { met, resolved } = countVerdicts(criteriaMet);
  return resolved === 0 ? amount : (amount * BigInt(met)) / BigInt(resolved);
}

// Each milestone: 2 days apart (a panel's appeal window fits), delivered at +3 h, reviewed at +4 h.
const GAP_HOURS = 48;

test('random milestone plans and outcomes: money conserved, nothing held at the end, the Worker paid the sum of its milestones', () =>
  withHarness(async (h) => {
    await h.makeEligible();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (k) => {
        run++;
        // A Worker of its own per run: a run that fails leaves nothing in the next one's balances.
        const WORKER = '0x' + run.toString(16).padStart(4, '0').repeat(10);
        // Enough for the escrow, bonds and fees of this run, and the stake.
        for (const [who, amount] of [
          [CLIENT, 2n * k.price + 5_000_000n],
          [WORKER, 1_000_000n],
        ] as const)
          await h.ledger.deposit({ id: `prop:${run}:${who}`, asset: 'USDC', to: agentOwner(who), amount });
        const before = {
          client: await h.balance(CLIENT),
          worker: await h.balance(WORKER),
          treasury: await h.balance('treasury'),
        };
        const baBefore = await Promise.all(BAS.map((ba) => h.balance(ba)));
        const shares = sharesOf(k.weights);
        const t0 = await h.now();
        const at = (hours: number) => new Date(t0 + hours * HOUR).toISOString();
        const milestones = shares.map((shareBps, i) => ({
          title: `m${i}`,
          acceptanceCriteria: ['a', 'b'],
          shareBps,
          deadlines: { delivery: at(3 + i * GAP_HOURS), review: at(4 + i * GAP_HOURS) },
        }));
        const { input, handle } = await started(h, {
          worker: WORKER,
          acceptanceCriteria: undefined,
          amount: k.price.toString(),
          deadlines: { match: at(1), withdrawal: at(2) },
          milestones,
        } as never);
        await send(handle, acceptUpdate, { caller: WORKER });
        const ended = k.outcomes.findIndex((o) => o === 'absent');
        const worked = ended === -1 ? k.outcomes.length : ended;
        for (let i = 0; i < worked; i++) {
          await send(handle, deliverUpdate, delivery(WORKER));
          const outcome = k.outcomes[i]!;
          if (outcome === 'revise') {
            await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [0] });
            await send(handle, deliverUpdate, delivery(WORKER));
          }
          if (outcome === 'approve' || outcome === 'revise')
            await send(handle, approveUpdate, { caller: CLIENT });
          if (outcome === 'timeout') {
            const review = Date.parse((await h.view(handle)).deadlines.review!);
            await h.sleep(review - (await h.now()) + HOUR);
          }
          if (outcome === 'dispute') {
            const view = await send(handle, disputeUpdate, { caller: CLIENT });
            for (const ba of view.backupAgents)
              await send(handle, voteUpdate, { caller: ba, votes: k.votes[i]! });
            await h.sleep(DEFAULT_PARAMS.appealWindow + HOUR);
          }
          // The milestone has settled: the next one is matched, or the contract ended.
          const view = await h.view(handle);
          assert.ok(
            view.milestones![i]!.status.startsWith('settled-'),
            `run ${run}: ${view.milestones![i]!.status}`,
          );
        }
        const outcome = (await handle.result()) as ContractOutcome;
        const view = await h.view(handle);
        const amounts = milestoneAmounts(
          k.price,
          shares.map((shareBps) => ({ shareBps })),
        );
        const stake = workerStakeFor(k.price, DEFAULT_PARAMS);
        const stakeShares = milestoneStakeShares(
          stake,
          shares.map((shareBps) => ({ shareBps })),
        );
        let paid = 0n;
        let slashed = 0n;
        view.milestones!.forEach((m, i) => {
          if (i < worked) {
            const expected = paymentOf(amounts[i]!, m.criteriaMet!);
            assert.equal(m.payment, expected.toString(), `run ${run}: milestone ${i}'s payment`);
            paid += expected;
            if (m.status === 'settled-none-met') slashed += stakeShares[i]!;
          } else {
            assert.equal(m.status, 'cancelled-absent');
            assert.equal(m.payment, '0');
            slashed += stakeShares[i]!;
          }
        });
        // A contract cancelled as a whole (absent on its first milestone) made no payment: null, as without milestones.
        assert.equal(view.payment ?? '0', paid.toString());
        assert.equal(
          outcome.created && outcome.status,
          milestonesFinalStatus(
            view.milestones!.map((m) => ({
              delivered: m.status.startsWith('settled-'),
              status: m.status as never,
              payment: BigInt(m.payment!),
            })),
          ),
        );
        const worker = await h.balance(WORKER);
        assert.equal(worker.held, 0n, `run ${run}: the Worker holds nothing`);
        assert.equal(
          worker.available - before.worker.available,
          paid - slashed,
          `run ${run}: the Worker's net`,
        );
        const client = await h.balance(CLIENT);
        assert.equal(client.held, before.client.held, `run ${run}: the Client holds nothing more`);
        await h.assertNothingPending(input.contractId);
        // Conservation: what left the Client and the Worker went to the Treasury and the panels.
        const bas = await Promise.all(BAS.map((ba) => h.balance(ba)));
        const delta = (x: { available: bigint; held: bigint }, y: { available: bigint; held: bigint }) =>
          x.available + x.held - y.available - y.held;
        const moved =
          delta(client, before.client) +
          delta(worker, before.worker) +
          delta(await h.balance('treasury'), before.treasury) +
          bas.reduce((s, b, i) => s + delta(b, baBefore[i]!), 0n);
        assert.equal(moved, 0n, `run ${run}: USDC conserved`);
        // An absence slashes the rest of the stake: absentSlashClientBps to the Client.
        if (ended !== -1) {
          const rest = stakeShares.slice(ended).reduce((s, x) => s + x, 0n);
          assert.ok(bps(rest, DEFAULT_PARAMS.absentSlashClientBps) <= rest);
        }
        await h.ledger.audit();
      }),
      { numRuns: RUNS },
    );
  }));
