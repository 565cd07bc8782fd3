// End to end on the dev server, through the SDK over HTTP: an FDP contract with three criteria, three
// Backup Agents funded by the operator and staked for eligibility, the Worker delivers, the Client
// disputes, the drawn panel votes (one BA dissents on one criterion) and the tally settles the
// contract partially met. Sealed votes and a stranger's vote are refused with nothing changed; after
// the tally, the exact USDC and OCT balances of every party and the Treasury, and the vote rows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Verdict, VoteRow } from '../../sdk/typescript/types';
import { useServiceHarness } from '../support/service';
import {
  agent,
  balancesOf,
  DELIVERY,
  expectApiError,
  fixedTerms,
  fund,
  sharedAccounts,
  sharedAccountsChange,
} from './support';
import {
  BA_BOND,
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  PANEL_FEE,
  PRICE,
  REWARD,
  WORKER_STAKE,
} from '../support/fixtures';
import { eventually } from '../support/eventually';

const h = useServiceHarness();

type Agent = ReturnType<typeof agent>;

const CRITERIA = ['every section translated', 'code blocks untouched', 'links still resolve'];

// Default params (workflows/rules/params.ts), worked out by hand from docs/protocol.md §2, §7a and §8.
const BA_FUNDS = 120_000_000n;
const SLICE = 3_333_333n; // floor(baBond 10_000_000 / 3 criteria); the remainder 1 is never at risk
// Criteria Met [met, not met, met]: met 2, resolved 3 → floor(2_500_000 × 2 / 3) = 1_666_666;
// partially met: the rest of the escrow (833_334), the Worker Stake and the Dispute Bond go back.
const PAYMENT = 1_666_666n;
const STRANGER_FUNDS = BA_BOND;

// The panel's ballots: BA 0 and 1 agree everywhere; BA 2 says `met` on criterion 1 (majority `not met`).
const MAJORITY: Verdict[] = ['met', 'not met', 'met'];
const DISSENT: Verdict[] = ['met', 'met', 'met'];

/** An agent's balances over HTTP (signed by that agent), as [USDC available, USDC held, OCT available, OCT held]. */
function expectedRows(id: string, ba: string, votes: Verdict[]): VoteRow[] {
  return votes.map((vote, criterionIndex) => {
    const agrees = vote === MAJORITY[criterionIndex];
    return {
      contractId: id,
      backupAgent: ba as VoteRow['backupAgent'],
      criterionIndex,
      vote,
      majorityOutcome: MAJORITY[criterionIndex]!,
      bondOutcome: agrees ? 'returned' : 'slashed',
      reward: agrees ? REWARD.toString() : '0',
    };
  });
}

const byAgentThenCriterion = (a: VoteRow, b: VoteRow) =>
  a.backupAgent === b.backupAgent
    ? a.criterionIndex - b.criterionIndex
    : a.backupAgent < b.backupAgent
      ? -1
      : 1;

describe('a privacy-preserving dispute decided by a Backup Agent panel, end to end', () => {
  test('FDP with three criteria: dispute, sealed votes, tally, settled partially met', async () => {
    const client = agent(h());
    const worker = agent(h());
    const stranger = agent(h());
    const bas: Agent[] = [agent(h()), agent(h()), agent(h())];
    const shared = await sharedAccounts(h());
    await fund(h(), client.address);
    await fund(h(), worker.address);
    await fund(h(), stranger.address, STRANGER_FUNDS);
    for (const ba of bas) {
      await fund(h(), ba.address, BA_FUNDS);
      const locked = await ba.lockEligibility(ELIGIBILITY_STAKE.toString());
      assert.equal(locked.locked, ELIGIBILITY_STAKE.toString());
      assert.deepEqual(await balancesOf(ba), [BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE, 0n, 0n]);
    }

    const created = await client.createContract({
      ...fixedTerms(worker.address),
      acceptanceCriteria: CRITERIA,
    });
    assert.equal(created.contractCode, 'FDP');
    const id = created.contractId;
    assert.equal((await worker.accept(id)).status, 'matched');
    assert.equal((await worker.deliver(id, DELIVERY)).status, 'under-review');

    const disputed = await client.dispute(id, ['met', 'not met', 'not met']);
    assert.equal(disputed.status, 'disputed');
    assert.equal(disputed.view, 'party');
    if (disputed.view === 'party') {
      // Only the three staked agents are eligible, so all of them are drawn.
      assert.deepEqual([...disputed.backupAgents].sort(), bas.map((b) => b.address).sort());
    }
    // The dispute holds its bond and the panel fee (3 seats × 0.2 USDC) together.
    assert.deepEqual(await balancesOf(client), [
      FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE,
      PRICE + DISPUTE_BOND + PANEL_FEE,
      0n,
      0n,
    ]);
    assert.deepEqual(await balancesOf(worker), [FUNDS - WORKER_STAKE, WORKER_STAKE, 0n, 0n]);

    const [ba0, ba1, ba2] = bas as [Agent, Agent, Agent];
    assert.equal((await ba0.getDeliveryKey(id)).key, DELIVERY.key);
    await ba0.vote(id, MAJORITY);
    await ba1.vote(id, MAJORITY);
    // The vote stakes the bond its seat holds out of the eligibility stake: nothing more is locked.
    assert.deepEqual(await balancesOf(ba0), [BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE, 0n, 0n]);

    // Before the tally: the ballots are sealed (even by agent), and a stranger may not vote.
    await expectApiError(stranger.getVotes(id), 409, 'votes_sealed');
    assert.deepEqual((await stranger.getAgentVotes(ba0.address)).rows, []);
    await expectApiError(stranger.vote(id, DISSENT), 403, 'not_on_panel');
    assert.deepEqual(await balancesOf(stranger), [STRANGER_FUNDS, 0n, 0n, 0n]);
    assert.deepEqual((await stranger.getAgentVotes()).rows, []);
    const stillDisputed = await client.getContract(id);
    assert.equal(stillDisputed.status, 'disputed');
    if (stillDisputed.view === 'party') assert.equal(stillDisputed.voting?.tallied, false);

    // The last ballot triggers the tally.
    await ba2.vote(id, DISSENT);
    // Both parties waive their appeal: the tally settles at once.
    assert.equal((await client.appeal(id, { waive: true })).status, 'resolved');
    await worker.appeal(id, { waive: true });
    const settled = await eventually(
      () => client.getContract(id),
      (v) => v.status.startsWith('settled-'),
    );
    assert.equal(settled.status, 'settled-partially-met');
    assert.equal(settled.view, 'party');
    if (settled.view === 'party') {
      assert.deepEqual(settled.criteriaMet, MAJORITY);
      assert.equal(settled.payment, PAYMENT.toString());
    }

    // Balances as [USDC available, USDC held, OCT available, OCT held].
    assert.deepEqual(await balancesOf(client), [FUNDS - PAYMENT - PANEL_FEE, 0n, 0n, 0n]); // 7_733_334
    assert.deepEqual(await balancesOf(worker), [FUNDS + PAYMENT, 0n, 0n, 0n]); // 11_666_666
    // BA 0 and 1: bond returned, a share of the panel fee, 3 × rewardPerCriterion; the stake stays locked.
    const agreeing = [BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE, 3n * REWARD, 0n];
    assert.deepEqual(await balancesOf(ba0), agreeing);
    assert.deepEqual(await balancesOf(ba1), agreeing);
    // BA 2: the criterion-1 slice slashed from its seat, its share of the fee (it voted), 2 × rewardPerCriterion.
    assert.deepEqual(await balancesOf(ba2), [
      BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE,
      ELIGIBILITY_STAKE - SLICE,
      2n * REWARD,
      0n,
    ]);
    assert.deepEqual(await balancesOf(stranger), [STRANGER_FUNDS, 0n, 0n, 0n]);
    // The treasury got the slashed slice and nothing else; 8 rewards were minted.
    assert.deepEqual(await sharedAccountsChange(h(), shared), [SLICE, 0n, 0n, 0n, -(8n * REWARD)]);
    assert.ok((await h().ledger().holdsByContract(id)).every((hold) => hold.status === 'resolved'));

    // The vote rows: one per BA per criterion, by contract and by agent.
    const expected = [
      ...expectedRows(id, ba0.address, MAJORITY),
      ...expectedRows(id, ba1.address, MAJORITY),
      ...expectedRows(id, ba2.address, DISSENT),
    ].sort(byAgentThenCriterion);
    const { contractId, rows } = await stranger.getVotes(id);
    assert.equal(contractId, id);
    assert.deepEqual([...rows].sort(byAgentThenCriterion), expected);
    for (const ba of bas) {
      const own = await ba.getAgentVotes();
      assert.equal(own.address, ba.address);
      assert.deepEqual(
        [...own.rows].sort(byAgentThenCriterion),
        // An agent's rows also name their milestone: none, for a contract without milestones.
        expected.filter((r) => r.backupAgent === ba.address).map((r) => ({ ...r, milestoneIndex: null })),
      );
    }
    assert.deepEqual((await stranger.getAgentVotes()).rows, []);

    // With every seat settled, each Backup Agent unlocks all its stake (and leaves the registry, so a
    // suite that shares this deployment draws its panels from its own agents).
    for (const ba of bas) await ba.unlockEligibility();
    assert.deepEqual(await balancesOf(ba0), [BA_FUNDS + FEE_SHARE, 0n, 3n * REWARD, 0n]);
    assert.deepEqual(await balancesOf(ba1), [BA_FUNDS + FEE_SHARE, 0n, 3n * REWARD, 0n]);
    assert.deepEqual(await balancesOf(ba2), [BA_FUNDS - SLICE + FEE_SHARE, 0n, 2n * REWARD, 0n]);
  });
});
