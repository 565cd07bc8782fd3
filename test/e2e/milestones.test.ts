// Contracts with milestones end to end on the dev server, through the SDK over HTTP (docs/protocol.md
// §6a): a three-milestone FDP contract approved stage by stage with the exact balances of both parties
// after each stage; then every combination (FDP FDS FOP FOS AOP AOS) with two milestones, each paid in
// full — by the Client's approval, or by a panel of three Backup Agents and a short appeal window.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentClient } from '../../sdk/typescript';
import { useServiceHarness } from '../support/service';
import { agent, balancesOf, DELIVERY, expectApiError, fund } from './support';
import { ELIGIBILITY_STAKE, FUNDS, PANEL_FEE, PRICE, SECOND, WORKER_STAKE } from '../support/fixtures';
import { eventually } from '../support/eventually';

const APPEAL_WINDOW = 2 * SECOND;
const h = useServiceHarness({ params: { appealWindow: APPEAL_WINDOW } });

const AMOUNTS = [750_000n, 750_000n, 1_000_000n];
/** Every Backup Agent these tests made eligible: the dev server's registry is shared, so a panel may seat any. */
const ELIGIBLE: AgentClient[] = [];
const STAKES = [75_000n, 75_000n, 100_000n];

/** `n` milestones (3000/3000/4000 or 5000/5000), a minute apart, from `now`. */
function plan(now: number, n: 2 | 3, standard: boolean) {
  const at = (s: number) => new Date(now + s * SECOND).toISOString();
  const shares = n === 3 ? [3000, 3000, 4000] : [5000, 5000];
  return shares.map((shareBps, i) => ({
    title: `part ${i + 1}`,
    acceptanceCriteria: [`criterion of part ${i + 1}`],
    shareBps,
    deadlines: { delivery: at(120 + 120 * i), ...(standard ? {} : { review: at(180 + 120 * i) }) },
  }));
}

function terms(
  code: string,
  now: number,
  n: 2 | 3,
  worker?: string,
): Parameters<AgentClient['createContract']>[0] {
  const at = (s: number) => new Date(now + s * SECOND).toISOString();
  const standard = code.endsWith('S');
  return {
    contractType: code.startsWith('A') ? 'auction' : 'fixed',
    awardMethod: code[1] === 'D' ? 'direct' : 'open',
    verificationMode: standard ? 'standard' : 'privacy-preserving',
    ...(code[1] === 'D' ? { worker: worker! } : {}),
    taskDescription: 'A report in parts.',
    amount: PRICE.toString(),
    deadlines: { match: at(60), withdrawal: at(61) },
    milestones: plan(now, n, standard),
  };
}

/**
 * Each Backup Agent's record holds one row per milestone whose panel it sat on, named by its milestone —
 * a BA on both panels keeps both. The first standard combination runs with only its own three BAs
 * eligible, so the same three sit on both panels.
 */
async function assertVoteRowsByMilestone(reader: AgentClient, id: string, panels: string[][]) {
  const twice = panels[0]!.filter((a) => panels[1]!.includes(a));
  if (ELIGIBLE.length === 3) assert.equal(twice.length, 3);
  for (const ba of new Set(panels.flat())) {
    const { rows } = await reader.getAgentVotes(ba);
    assert.deepEqual(
      rows
        .filter((r) => r.contractId === id)
        .map((r) => [r.milestoneIndex, r.criterionIndex, r.vote, r.majorityOutcome, r.bondOutcome]),
      panels.flatMap((members, m) => (members.includes(ba) ? [[m, 0, 'met', 'met', 'returned']] : [])),
      ba,
    );
  }
}

describe('milestones end to end', () => {
  test('FDP, three milestones approved stage by stage: exact balances after each stage', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const created = await client.createContract(terms('FDP', Date.now(), 3, worker.address));
    const id = created.contractId;
    assert.equal(created.currentMilestone, 0);
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, PRICE, 0n, 0n]);
    await worker.accept(id);
    let paid = 0n;
    let stakeBack = 0n;
    for (let i = 0; i < 3; i++) {
      // A message acts on the current milestone: nothing is delivered yet, so approve is refused.
      await expectApiError(client.approve(id), 409, 'wrong_state');
      assert.equal((await worker.deliver(id, DELIVERY)).status, 'under-review');
      const view = await client.approve(id);
      paid += AMOUNTS[i]!;
      stakeBack += STAKES[i]!;
      assert.equal(view.status, i < 2 ? 'matched' : 'settled-fully-met');
      assert.equal(view.currentMilestone, Math.min(i + 1, 2));
      assert.equal(view.milestones![i]!.status, 'settled-fully-met');
      assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, PRICE - paid, 0n, 0n]);
      assert.deepEqual(await balancesOf(worker), [
        FUNDS - WORKER_STAKE + paid + stakeBack,
        WORKER_STAKE - stakeBack,
        0n,
        0n,
      ]);
      if (i < 2) {
        const listed = await eventually(
          () => worker.myContracts(),
          (page) => page.contracts.some((c) => c.contractId === id && c.milestone === i + 1),
        );
        const mine = listed.contracts.find((c) => c.contractId === id)!;
        assert.equal(mine.nextAction, 'deliver');
        assert.equal(mine.actionDeadline, view.milestones![i + 1]!.deadlines.delivery);
      }
    }
    assert.deepEqual(await balancesOf(client), [FUNDS - PRICE, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(worker), [FUNDS + PRICE, 0n, 0n, 0n]);
    const events = await client.getEvents(id);
    assert.deepEqual(
      events.events.flatMap((e) => (e.type === 'contract.milestone-settled' ? [e.milestone] : [])),
      [0, 1, 2],
    );
  });

  for (const code of ['FDP', 'FDS', 'FOP', 'FOS', 'AOP', 'AOS'] as const) {
    test(`${code} with two milestones: each delivered, verified and paid in turn`, async () => {
      const standard = code.endsWith('S');
      const client = agent(h());
      const worker = agent(h());
      await fund(h(), client.address);
      await fund(h(), worker.address);
      const panel = standard ? [agent(h()), agent(h()), agent(h())] : [];
      for (const ba of panel) {
        await fund(h(), ba.address, ELIGIBILITY_STAKE + FUNDS);
        await ba.lockEligibility(ELIGIBILITY_STAKE.toString());
        ELIGIBLE.push(ba);
      }
      const created = await client.createContract(terms(code, Date.now(), 2, worker.address));
      const id = created.contractId;
      assert.equal(created.contractCode, code);
      if (code.startsWith('A')) {
        await worker.quote(id, { price: PRICE.toString() });
        await client.award(id);
      } else {
        await worker.accept(id);
      }
      /** Each milestone's panel (standard mode). */
      const panels: string[][] = [];
      for (let i = 0; i < 2; i++) {
        await worker.deliver(id, DELIVERY);
        if (!standard) {
          await client.approve(id);
        } else {
          const drawn = await eventually(
            () => client.getContract(id),
            (v) => v.view === 'party' && v.backupAgents.length === 3,
          );
          assert.ok(drawn.view === 'party');
          panels.push([...drawn.backupAgents]);
          for (const ba of ELIGIBLE.filter((a) => drawn.backupAgents.includes(a.address as never)))
            await ba.vote(id, ['met']);
        }
        await eventually(
          () => client.getContract(id),
          (v) => v.milestones![i]!.status === 'settled-fully-met',
          30 * SECOND,
        );
      }
      if (standard) await assertVoteRowsByMilestone(client, id, panels);
      const done = await client.getContract(id);
      assert.equal(done.status, 'settled-fully-met');
      const fees = standard ? 2n * PANEL_FEE : 0n;
      assert.deepEqual(await balancesOf(client), [FUNDS - PRICE - fees, 0n, 0n, 0n]);
      assert.deepEqual(await balancesOf(worker), [FUNDS + PRICE, 0n, 0n, 0n]);
    });
  }
});

describe('milestones end to end: a dispute and an absence inside the plan', () => {
  /** FDP terms with the milestones given (criteria per milestone), the plan's deadlines `gaps` seconds apart. */
  function fdpTerms(worker: string, criteria: number[], startS: number, gapS: number) {
    const now = Date.now();
    const at = (s: number) => new Date(now + s * SECOND).toISOString();
    const shares = [3000, 3000, 4000];
    return {
      contractType: 'fixed' as const,
      awardMethod: 'direct' as const,
      verificationMode: 'privacy-preserving' as const,
      worker,
      taskDescription: 'A report in parts.',
      amount: PRICE.toString(),
      deadlines: { match: at(startS - 2), withdrawal: at(startS - 1) },
      milestones: criteria.map((n, i) => ({
        title: `part ${i + 1}`,
        acceptanceCriteria: Array.from({ length: n }, (_, k) => `criterion ${k + 1} of part ${i + 1}`),
        shareBps: shares[i]!,
        deadlines: { delivery: at(startS + gapS * 2 * i), review: at(startS + gapS * (2 * i + 1)) },
      })),
    };
  }

  test('milestone 2 disputed and partially met by a panel, milestone 3 continuing: exact balances', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    for (let i = 0; i < 3; i++) {
      const ba = agent(h());
      await fund(h(), ba.address, ELIGIBILITY_STAKE + FUNDS);
      await ba.lockEligibility(ELIGIBILITY_STAKE.toString());
      ELIGIBLE.push(ba);
    }
    const { contractId: id } = await client.createContract(fdpTerms(worker.address, [1, 2, 1], 60, 60));
    await worker.accept(id);
    await worker.deliver(id, DELIVERY);
    assert.equal((await client.approve(id)).currentMilestone, 1);

    await worker.deliver(id, DELIVERY);
    assert.equal((await client.dispute(id)).status, 'disputed');
    const drawn = await eventually(
      () => client.getContract(id),
      (v) => v.view === 'party' && v.backupAgents.length === 3,
      30 * SECOND,
    );
    assert.ok(drawn.view === 'party');
    for (const ba of ELIGIBLE.filter((a) => drawn.backupAgents.includes(a.address as never)))
      await ba.vote(id, ['met', 'not met']);
    const third = await eventually(
      () => client.getContract(id),
      (v) => v.currentMilestone === 2 && v.status === 'matched',
      30 * SECOND,
    );
    assert.equal(third.milestones![1]!.status, 'settled-partially-met');
    const half = AMOUNTS[1]! / 2n;
    // Milestone 2 pays half its amount; the Dispute Bond comes back (a founded dispute), the panel fee is spent.
    assert.deepEqual(await balancesOf(client), [
      FUNDS - PRICE + AMOUNTS[1]! - half - PANEL_FEE,
      AMOUNTS[2]!,
      0n,
      0n,
    ]);

    await worker.deliver(id, DELIVERY);
    const done = await client.approve(id);
    assert.equal(done.status, 'settled-partially-met');
    assert.deepEqual(
      done.milestones!.map((m) => m.status),
      ['settled-fully-met', 'settled-partially-met', 'settled-fully-met'],
    );
    const paid = AMOUNTS[0]! + half + AMOUNTS[2]!;
    assert.deepEqual(await balancesOf(worker), [FUNDS + paid, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(client), [FUNDS - paid - PANEL_FEE, 0n, 0n, 0n]);
  });

  test('a Worker absent on milestone 2: milestone 1 stands, the rest refunded, its stake shares slashed', async () => {
    const client = agent(h());
    const worker = agent(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    const { contractId: id } = await client.createContract(fdpTerms(worker.address, [1, 1, 1], 12, 6));
    await worker.accept(id);
    await worker.deliver(id, DELIVERY);
    assert.equal((await client.approve(id)).currentMilestone, 1);
    const done = await eventually(
      () => client.getContract(id),
      (v) => v.status.startsWith('settled') || v.status.startsWith('cancelled'),
      60 * SECOND,
    );
    assert.equal(done.status, 'settled-partially-met');
    assert.deepEqual(
      done.milestones!.map((m) => m.status),
      ['settled-fully-met', 'cancelled-absent', 'cancelled-absent'],
    );
    // The stake shares of milestones 2 and 3 are slashed: 80% (absentSlashClientBps) to the Client.
    const slashed = STAKES[1]! + STAKES[2]!;
    const toClient = (slashed * 8000n) / 10_000n;
    assert.deepEqual(await balancesOf(worker), [FUNDS - WORKER_STAKE + AMOUNTS[0]! + STAKES[0]!, 0n, 0n, 0n]);
    assert.deepEqual(await balancesOf(client), [FUNDS - AMOUNTS[0]! + toClient, 0n, 0n, 0n]);
  });
});
