// Property test of seats across many contracts at the rules + ledger level (the workflow wires the
// same calls): random draws over a shared registry (rules/draw + rules/seats over listEligibleAgents,
// seated by the seatPanel activity), random votes, unlocks and top-ups between them, and tallies
// settled through the real `settle` activity in random order. Checks after every step: no settle
// fails (no hold resolved twice), every drawn panel is seated or the draw retried, every slash comes
// from its seat's hold, no agent holds more seats than its stake pays for, the ledger's audit passes
// (every asset sums to zero); at the end no seat is left open. Bounded: FC_RUNS (default 25).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { agentOwner, openLedger, type Ledger } from '../../activities/ledger';
import { createLedgerActivities } from '../../activities/ledger-activities';
import { createPanelActivities } from '../../activities/panel-activities';
import { panelPostings } from '../../workflows/contract/panel/postings';
import type { Address } from '../../workflows/rules/address';
import { drawPanel } from '../../workflows/rules/draw';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import { drawableAgents } from '../../workflows/rules/seats';
import { tally } from '../../workflows/rules/tally';
import { VERDICTS, type Verdict } from '../../workflows/rules/verdicts';

const RUNS = Number(process.env.FC_RUNS ?? 25);
const P = { ...DEFAULT_PARAMS, baEligibilityStake: 30_000_000n, baBond: 10_000_000n };
const AGENTS = Array.from({ length: 7 }, (_, i) => ('0x' + (0x40 + i).toString(16).repeat(20)) as Address);
const HASH = 'ef'.repeat(32);

let dir: string;
let ledger: Ledger;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oc-seats-'));
  ledger = await openLedger({ kind: 'sqlite', path: join(dir, 'ledger.db') });
});
after(async () => {
  await ledger?.close();
  rmSync(dir, { recursive: true, force: true });
});

const step = fc.oneof(
  fc.record({ kind: fc.constant('draw' as const), contract: fc.nat(7) }),
  fc.record({
    kind: fc.constant('vote' as const),
    contract: fc.nat(7),
    seat: fc.nat(2),
    verdicts: fc.array(fc.constantFrom(...VERDICTS), { minLength: 2, maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant('tally' as const), contract: fc.nat(7) }),
  fc.record({
    kind: fc.constant('unlock' as const),
    agent: fc.nat(6),
    amount: fc.option(fc.bigInt({ min: 1n, max: 40_000_000n })),
  }),
  fc.record({
    kind: fc.constant('lock' as const),
    agent: fc.nat(6),
    amount: fc.bigInt({ min: 1n, max: 40_000_000n }),
  }),
);

interface Seated {
  panel: Address[];
  votes: Record<string, Verdict[]>;
  tallied: boolean;
}

let run = 0;

test('seats across contracts: nothing resolved twice, every slash from its seat, every asset sums to zero', async () => {
  const acts = createLedgerActivities({ ledger });
  const panels = createPanelActivities({ ledger });
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.bigInt({ min: 0n, max: 80_000_000n }), { minLength: 7, maxLength: 7 }),
      fc.array(step, { minLength: 10, maxLength: 60 }),
      async (initial, steps) => {
        const r = ++run;
        const cid = (n: number) => `p${r}c${n}`;
        const contracts = new Map<number, Seated>();
        let ops = 0;
        const lock = async (who: Address, amount: bigint) => {
          const key = `p${r}o${++ops}`;
          await ledger.deposit({ id: `fund:${key}`, asset: 'USDC', to: agentOwner(who), amount });
          await acts.lockEligibility({ address: who, amount: amount.toString(), key });
        };
        for (const [i, amount] of initial.entries()) if (amount > 0n) await lock(AGENTS[i]!, amount);

        const settleTally = async (n: number, c: Seated) => {
          const t = tally({ panel: c.panel, votes: c.votes, criteriaCount: 2, params: P });
          const before = await totals(c.panel);
          await acts.settle({
            contractId: cid(n),
            step: 'settlement',
            postings: panelPostings(cid(n), t.agents),
            final: true,
          });
          const afterwards = await totals(c.panel);
          for (const a of t.agents) {
            assert.equal(before.get(a.backupAgent)! - afterwards.get(a.backupAgent)!, a.bondSlashed);
          }
          c.tallied = true;
        };

        for (const s of steps) {
          if (s.kind === 'draw' && !contracts.has(s.contract)) {
            const registry = await acts.listEligibleAgents({ minStake: P.baEligibilityStake.toString() });
            const draw = drawPanel({
              contractId: cid(s.contract),
              deliveryHash: HASH,
              panelSize: 3,
              round: 'panel',
              registry: drawableAgents(
                registry.map((e) => ({
                  address: e.address,
                  free: BigInt(e.stake),
                  seated: BigInt(e.seated),
                })),
                P,
              ),
              exclude: [],
              secret: null,
            });
            if (draw.panel.length === 0) continue; // pending: retried by a later draw step
            const seated = await panels.seatPanel({
              contractId: cid(s.contract),
              members: draw.panel,
              bond: P.baBond.toString(),
            });
            assert.ok(seated.seated, 'nothing moved between the registry read and the seats');
            contracts.set(s.contract, { panel: draw.panel, votes: {}, tallied: false });
          } else if (s.kind === 'vote') {
            const c = contracts.get(s.contract);
            const voter = c?.panel[s.seat];
            if (c && !c.tallied && voter && !c.votes[voter]) c.votes[voter] = s.verdicts;
          } else if (s.kind === 'tally') {
            const c = contracts.get(s.contract);
            if (c && !c.tallied) await settleTally(s.contract, c);
          } else if (s.kind === 'unlock') {
            const who = AGENTS[s.agent]!;
            const free = await freeOf(who);
            const amount = s.amount ?? undefined;
            const key = `p${r}o${++ops}`;
            if (amount !== undefined && amount > free) {
              await assert.rejects(acts.unlockEligibility({ address: who, amount: amount.toString(), key }));
            } else {
              const { released } = await acts.unlockEligibility({
                address: who,
                key,
                ...(amount ? { amount: amount.toString() } : {}),
              });
              assert.equal(BigInt(released), amount ?? free);
            }
          } else if (s.kind === 'lock') {
            await lock(AGENTS[s.agent]!, s.amount);
          }
          for (const who of AGENTS) {
            const seats = [...contracts.values()].filter((c) => !c.tallied && c.panel.includes(who)).length;
            const seatedStake = (
              await ledger.holdsOf(agentOwner(who), { kind: 'ba-bond', open: true })
            ).reduce((x, h) => x + h.amount, 0n);
            assert.equal(seatedStake, BigInt(seats) * P.baBond, `${who}'s seats each hold one bond`);
          }
        }
        for (const [n, c] of contracts) if (!c.tallied) await settleTally(n, c);
        for (const who of AGENTS) {
          assert.deepEqual(await ledger.holdsOf(agentOwner(who), { kind: 'ba-bond', open: true }), []);
        }
        const audit = await ledger.audit();
        assert.equal(audit.assets.USDC.sum, 0n);
        assert.equal(audit.assets.OCT.sum, 0n);
      },
    ),
    { numRuns: RUNS },
  );
});

async function freeOf(who: string): Promise<bigint> {
  return (await ledger.holdsOf(agentOwner(who), { kind: 'eligibility', open: true })).reduce(
    (s, h) => s + h.amount,
    0n,
  );
}

async function totals(who: readonly string[]): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  for (const w of who) {
    const b = (await ledger.balances(agentOwner(w))).USDC;
    out.set(w, b.available + b.held);
  }
  return out;
}
