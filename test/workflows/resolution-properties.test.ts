// Property test of a panel's resolution at the rules + ledger level (the workflow-level paths are in
// panels.test.ts): random panels, votes, non-voters, criteria counts and disputes, settled through the
// real `settle` activity on SQLite exactly as the workflow builds the batch (rules/tally + rules/settlement
// + panel-postings, seats held by the seatPanel activity). Checks: USDC conserved, OCT minted = sum of the rows' rewards, payment = §7a,
// no balance below zero, nothing left pending, the ledger's audit passes. Bounded: FC_RUNS (default 100).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { agentOwner, openLedger, type Ledger } from '../../activities/ledger';
import { createLedgerActivities } from '../../activities/ledger-activities';
import type { SettlementPosting } from '../../workflows/activity-interfaces';
import { createPanelActivities } from '../../activities/panel-activities';
import { panelPostings } from '../../workflows/contract/panel/postings';
import type { Address } from '../../workflows/rules/address';
import type { HoldSplit } from '../../workflows/rules/holds';
import { disputeBondFor, workerStakeFor } from '../../workflows/rules/holds';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { paymentFor, settlementFor } from '../../workflows/rules/settlement';
import { tally } from '../../workflows/rules/tally';
import { countVerdicts, VERDICTS, type Verdict } from '../../workflows/rules/verdicts';
import { CLIENT, WORKER } from '../support/fixtures';

const RUNS = Number(process.env.FC_RUNS ?? 100);
const AGENTS = Array.from(
  { length: 5 },
  (_, i) => ('0x' + (i + 1).toString(16).padStart(2, '0').repeat(20)) as Address,
);

let dir: string;
let ledger: Ledger;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oc-resolution-'));
  ledger = await openLedger({ kind: 'sqlite', path: join(dir, 'ledger.db') });
});
after(async () => {
  await ledger?.close();
  rmSync(dir, { recursive: true, force: true });
});

const caseArb = fc.record({
  criteria: fc.integer({ min: 1, max: 4 }),
  panelSize: fc.integer({ min: 0, max: 5 }),
  // From 100 minor units: small prices meet the Worker Stake's floor (minWorkerStake), large ones its share.
  price: fc.bigInt({ min: 100n, max: 50_000_000n }),
  disputed: fc.boolean(),
  /** Per BA: its verdicts, or null for no vote. */
  ballots: fc.array(fc.option(fc.array(fc.constantFrom(...VERDICTS), { minLength: 4, maxLength: 4 })), {
    minLength: 5,
    maxLength: 5,
  }),
  eligibility: fc.array(
    fc.bigInt({ min: DEFAULT_PARAMS.baEligibilityStake, max: 3n * DEFAULT_PARAMS.baEligibilityStake }),
    {
      minLength: 5,
      maxLength: 5,
    },
  ),
});

let n = 0;

test('resolution batches conserve USDC, mint the rows rewards, pay the §7a formula, never go below zero', async () => {
  const acts = createLedgerActivities({ ledger });
  const panelActs = createPanelActivities({ ledger });
  const params = DEFAULT_PARAMS;
  await fc.assert(
    fc.asyncProperty(caseArb, async (k) => {
      const cid = `c-prop${++n}`;
      const fund = async (who: string, amount: bigint) =>
        ledger.deposit({ id: `${cid}:fund:${who}`, asset: 'USDC', to: agentOwner(who), amount });
      await fund(CLIENT, k.price * 2n);
      const stakeAmount = workerStakeFor(k.price, params);
      await fund(WORKER, stakeAmount);
      const panel = AGENTS.slice(0, k.panelSize);
      for (const [i, ba] of panel.entries()) {
        await fund(ba, k.eligibility[i]!);
        await acts.lockEligibility({ address: ba, amount: k.eligibility[i]!.toString(), key: cid });
      }
      if (panel.length > 0) {
        const seated = await panelActs.seatPanel({
          contractId: cid,
          members: panel,
          bond: params.baBond.toString(),
        });
        assert.deepEqual(seated, { seated: true, replayed: false });
      }
      const escrow = await acts.lockEscrow({ contractId: cid, client: CLIENT, amount: k.price.toString() });
      const stake = await acts.lockStake({ contractId: cid, worker: WORKER, amount: stakeAmount.toString() });
      const bondAmount = k.disputed ? disputeBondFor(k.price, params) : 0n;
      const bond =
        bondAmount > 0n
          ? await acts.lockBond({
              contractId: cid,
              kind: 'dispute-bond',
              party: CLIENT,
              amount: bondAmount.toString(),
            })
          : null;
      const votes: Record<string, Verdict[]> = {};
      for (const [i, ba] of panel.entries()) {
        const ballot = k.ballots[i];
        if (ballot !== null && ballot !== undefined) votes[ba] = ballot.slice(0, k.criteria);
      }
      const before = await snapshot([CLIENT, WORKER, 'treasury', ...panel]);

      const t = tally({ panel, votes, criteriaCount: k.criteria, params });
      const settlement = settlementFor(
        {
          escrow: k.price,
          workerStake: stakeAmount,
          disputeBond: bond === null ? null : bondAmount,
        },
        t.criteriaMet,
        params,
      );
      const holdIds = { escrow: escrow.holdId, workerStake: stake.holdId, disputeBond: bond?.holdId };
      const party = { client: CLIENT, worker: WORKER, treasury: 'treasury' } as const;
      const base: SettlementPosting[] = settlement.holds
        .filter((s: HoldSplit) => holdIds[s.hold] !== undefined)
        .map((s: HoldSplit) => ({
          type: 'resolve',
          holdId: holdIds[s.hold]!,
          parts: s.parts.map((p) => ({ to: party[p.role], amount: p.amount.toString() })),
        }));
      await acts.settle({
        contractId: cid,
        step: 'settlement',
        postings: [...base, ...panelPostings(cid, t.agents)],
      });

      const afterwards = await snapshot([CLIENT, WORKER, 'treasury', ...panel]);
      const usdcBefore = [...before.values()].reduce((s, b) => s + b.usdc, 0n);
      const usdcAfter = [...afterwards.values()].reduce((s, b) => s + b.usdc, 0n);
      assert.equal(usdcAfter, usdcBefore, 'USDC conserved among the parties');
      const minted = [...afterwards.entries()].reduce((s, [who, b]) => s + b.oct - before.get(who)!.oct, 0n);
      assert.equal(
        minted,
        t.rows.reduce((s, r) => s + r.reward, 0n),
        'OCT minted = sum of rewards',
      );
      assert.equal(minted, t.totals.tokensMinted);
      const counts = countVerdicts(t.criteriaMet);
      const payment = paymentFor(k.price, counts);
      assert.equal(settlement.payment, payment);
      const workerGain = afterwards.get(WORKER)!.usdc - before.get(WORKER)!.usdc;
      const stakeLost = settlement.tier === 'none-met' ? stakeAmount : 0n;
      // Totals count held funds: the stake was already the Worker's; it loses it only when none met.
      assert.equal(workerGain, payment - stakeLost, 'the Worker gets the §7a payment');
      for (const [who, b] of afterwards) assert.ok(b.available >= 0n, `${who} below zero`);
      for (const ba of panel) {
        const slashed = t.agents.find((a) => a.backupAgent === ba)!;
        assert.equal(before.get(ba)!.usdc - afterwards.get(ba)!.usdc, slashed.bondSlashed);
        // What the seat did not lose is eligibility stake again: only the slash left it.
        const free = (await ledger.holdsOf(agentOwner(ba), { kind: 'eligibility', open: true })).reduce(
          (sum, h) => sum + h.amount,
          0n,
        );
        assert.equal(free, k.eligibility[panel.indexOf(ba)]! - slashed.bondSlashed);
      }
      assert.deepEqual(
        (await ledger.holdsByContract(cid)).filter((h) => h.status === 'open'),
        [],
      );
      // Leave nothing eligible behind for the next run's draw-free accounting.
      for (const ba of panel) await acts.unlockEligibility({ address: ba, key: cid });
    }),
    {
      numRuns: RUNS,
      // The smallest price, whose Worker Stake is the floor (minWorkerStake), far above the price.
      examples: [
        [
          {
            criteria: 1,
            panelSize: 0,
            price: 100n,
            disputed: false,
            ballots: [null, null, null, null, null],
            eligibility: Array(5).fill(DEFAULT_PARAMS.baEligibilityStake),
          },
        ],
      ],
    },
  );
  await ledger.audit();
});

async function snapshot(parties: readonly string[]) {
  const out = new Map<string, { usdc: bigint; available: bigint; oct: bigint }>();
  for (const who of parties) {
    const b = await ledger.balances(who === 'treasury' ? 'treasury' : agentOwner(who));
    out.set(who, { usdc: b.USDC.available + b.USDC.held, available: b.USDC.available, oct: b.OCT.available });
  }
  return out;
}
