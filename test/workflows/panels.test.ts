// Disputes, Backup Agent panels, sealed votes and the tally (docs/protocol.md §7–§8) on the
// time-skipping server with the real ledger on SQLite: exact USDC and OCT balances of every party.
// Defaults: price 2.5 USDC, 2 criteria, baBond 10 USDC (slices of 5), reward 1 OCT per criterion.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsQuery, votesQuery, type VoteRowView } from '../../workflows/definitions';
import { drawFromCandidates } from '../../workflows/rules/draw';
import { contractStatusKey, nextDeadlineKey } from '../../workflows/search-attributes';
import { useWorkflowSuite, type Harness } from './harness';
import {
  BA1,
  BA2,
  BA3,
  BAS,
  BA_FUNDS,
  CLIENT,
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FUNDS,
  PRICE,
  REWARD,
  WORKER,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import { PATHS, type PathRun } from './scenarios';
import { b, type Balance } from '../support/balances';

const withHarness = useWorkflowSuite();

const untouchedBA = b(BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE);

async function assertSettled(
  h: Harness,
  run: PathRun,
  status: string,
  usdc: Record<string, Balance>,
  oct: Record<string, bigint>,
): Promise<void> {
  assert.equal(run.outcome?.created && run.outcome.status, status);
  await h.assertBalances(usdc);
  for (const [party, want] of Object.entries(oct))
    assert.equal(await h.tokens(party), want, `OCT of ${party}`);
  await h.assertNothingPending(run.contractId);
  await h.ledger.audit();
  for (const ba of BAS) assert.deepEqual(await h.ledger.panels.openPanelsOf(ba), [], `${ba} still seated`);
}

/** The settlement is ONE batch: every money op of the contract after the locks is `<id>:settlement:<n>`. */
async function assertOneBatch(h: Harness, contractId: string): Promise<void> {
  const ops = new Set((await h.ledger.postingsByContract(contractId)).map((p) => p.opId));
  const rest = [...ops].filter((id) => !id.startsWith(`${contractId}:settlement:`));
  for (const id of rest)
    assert.match(id, /:(escrow|stake:0x[0-9a-f]{40}|dispute-bond:0x[0-9a-f]{40}|ba-bond:0x[0-9a-f]{40})$/);
}

describe('disputes and panels (time-skipping server, real ledger on SQLite)', () => {
  test('dispute ending fully met: escrow to the Worker, the Dispute Bond to the Treasury, 2 OCT per BA', () =>
    withHarness(async (h) => {
      const run = await PATHS['dispute-fully-met'](h);
      await assertSettled(
        h,
        run,
        'settled-fully-met',
        {
          [CLIENT]: b(FUNDS - PRICE - DISPUTE_BOND),
          [WORKER]: b(WORKER_FUNDS + PRICE),
          treasury: b(DISPUTE_BOND),
          [BA1]: untouchedBA,
          [BA2]: untouchedBA,
          [BA3]: untouchedBA,
        },
        { [BA1]: 2n * REWARD, [BA2]: 2n * REWARD, [BA3]: 2n * REWARD, [CLIENT]: 0n, [WORKER]: 0n },
      );
      await assertOneBatch(h, run.contractId);
      const view = await h.view(run.handle);
      assert.deepEqual(view.criteriaMet, ['met', 'met']);
      assert.deepEqual(view.disputeClaims, ['met', 'not met']);
      assert.equal(view.disputeBond, DISPUTE_BOND.toString());
      assert.deepEqual([...view.keyReaders.materials].sort(), [WORKER, ...BAS].sort());
      assert.deepEqual([...view.keyReaders.delivery].sort(), [CLIENT, ...BAS].sort());

      const events = await run.handle.query(eventsQuery);
      const types = events.map((e) => e.type).filter((t) => t !== 'contract.message-rejected');
      assert.deepEqual(types, [
        'contract.created',
        'contract.matched',
        'contract.delivered',
        'agent.verified',
        'contract.disputed',
        'contract.panel-drawn',
        'agent.verified',
        'agent.verified',
        'agent.verified',
        'contract.resolved',
        'contract.settled',
      ]);
      const verified = events.flatMap((e) =>
        e.type === 'agent.verified' ? [[e.agentId, e.role, e.verdict]] : [],
      );
      assert.deepEqual(verified[0], [CLIENT, 'client', 'fail']);
      assert.deepEqual(
        verified.slice(1).map((v) => v[2]),
        ['pass', 'pass', 'pass'],
      );
      const resolved = events.find((e) => e.type === 'contract.resolved');
      assert.deepEqual(resolved?.type === 'contract.resolved' && resolved.successCriteria, [
        { key: 'c1', met: true },
        { key: 'c2', met: true },
      ]);
      // Anyone recomputes the draw from the content-free record.
      const drawn = events.find((e) => e.type === 'contract.panel-drawn');
      assert.ok(drawn?.type === 'contract.panel-drawn');
      assert.deepEqual(
        drawFromCandidates({ ...drawn, deliveryHash: drawn.deliverySha256 }).panel,
        drawn.panel,
      );
      assert.deepEqual([...drawn.registryCandidates].sort(), [...BAS].sort());
    }));

  test('dispute ending partially met: pro-rata pay, bond back; a dissenting BA slashed', () =>
    withHarness(async (h) => {
      const run = await PATHS['dispute-partially-met'](h);
      const payment = PRICE / 2n;
      await assertSettled(
        h,
        run,
        'settled-partially-met',
        {
          [CLIENT]: b(FUNDS - payment),
          [WORKER]: b(WORKER_FUNDS + payment),
          // BA3: unclear vs met → half its 5 USDC slice; met vs not met → the whole slice.
          treasury: b(7_500_000n),
          [BA1]: untouchedBA,
          [BA2]: untouchedBA,
          [BA3]: b(BA_FUNDS - ELIGIBILITY_STAKE - 7_500_000n, ELIGIBILITY_STAKE),
        },
        { [BA1]: 2n * REWARD, [BA2]: 2n * REWARD, [BA3]: 0n },
      );
      const view = await h.view(run.handle);
      assert.deepEqual(view.criteriaMet, ['met', 'not met']);
      assert.equal(view.payment, payment.toString());
      const votes = await run.handle.query(votesQuery);
      assert.ok(!votes.sealed);
      assert.deepEqual(
        votes.rows
          .filter((r) => r.backupAgent === BA3)
          .map((r) => [r.vote, r.majorityOutcome, r.bondOutcome, r.reward]),
        [
          ['unclear', 'met', 'partially slashed', '0'],
          ['met', 'not met', 'slashed', '0'],
        ],
      );
    }));

  test('dispute ending none met: escrow back, the Worker Stake slashed per §7a, bond back', () =>
    withHarness(async (h) => {
      const run = await PATHS['dispute-none-met'](h);
      const toClient = (WORKER_STAKE * 8000n) / 10000n;
      await assertSettled(
        h,
        run,
        'settled-none-met',
        {
          [CLIENT]: b(FUNDS + toClient),
          [WORKER]: b(WORKER_FUNDS - WORKER_STAKE),
          treasury: b(WORKER_STAKE - toClient + 2_500_000n),
          [BA1]: untouchedBA,
          [BA2]: untouchedBA,
          [BA3]: b(BA_FUNDS - ELIGIBILITY_STAKE - 2_500_000n, ELIGIBILITY_STAKE),
        },
        { [BA1]: 2n * REWARD, [BA2]: 2n * REWARD, [BA3]: REWARD },
      );
      assert.equal((await h.view(run.handle)).contractCode, 'FOP');
    }));

  test('FDS: the panel is drawn at delivery, votes while under review, fully met', () =>
    withHarness(async (h) => {
      const run = await PATHS['standard-fds-panel'](h);
      await assertSettled(
        h,
        run,
        'settled-fully-met',
        {
          [CLIENT]: b(FUNDS - PRICE),
          [WORKER]: b(WORKER_FUNDS + PRICE),
          treasury: b(0n),
          [BA1]: untouchedBA,
          [BA2]: untouchedBA,
          [BA3]: untouchedBA,
        },
        { [BA1]: 2n * REWARD, [BA2]: 2n * REWARD, [BA3]: 2n * REWARD },
      );
      const types = (await run.handle.query(eventsQuery)).map((e) => e.type);
      assert.ok(!types.includes('contract.disputed'));
      assert.equal(types.indexOf('contract.panel-drawn'), types.indexOf('contract.delivered') + 1);
    }));

  test('FOS: a BA that never votes is slashed from its eligibility stake; votes sealed until the tally; late vote refused', () =>
    withHarness(async (h) => {
      const run = await PATHS['standard-fos-no-vote'](h);
      await assertSettled(
        h,
        run,
        'settled-fully-met',
        {
          [CLIENT]: b(FUNDS - PRICE),
          [WORKER]: b(WORKER_FUNDS + PRICE),
          treasury: b(5_000_000n),
          [BA1]: untouchedBA,
          [BA2]: untouchedBA,
          // c1 decided `met` without it: one 5 USDC slice from its stake; c2 unclear: nothing.
          [BA3]: b(BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE - 5_000_000n),
        },
        { [BA1]: REWARD, [BA2]: REWARD, [BA3]: 0n },
      );
      const view = await h.view(run.handle);
      assert.deepEqual(view.criteriaMet, ['met', 'unclear']);
      assert.equal(view.voting?.tallied, true);
      const votes = await run.handle.query(votesQuery);
      assert.ok(!votes.sealed);
      const row = (r: VoteRowView) => [
        r.backupAgent,
        r.criterionIndex,
        r.vote,
        r.majorityOutcome,
        r.bondOutcome,
        r.reward,
      ];
      const expected = [
        [BA1, 0, 'met', 'met', 'returned', '1000000'],
        [BA1, 1, 'met', 'unclear', 'returned', '0'],
        [BA2, 0, 'met', 'met', 'returned', '1000000'],
        [BA2, 1, 'not met', 'unclear', 'returned', '0'],
        [BA3, 0, 'no vote', 'met', 'slashed', '0'],
        [BA3, 1, 'no vote', 'unclear', 'returned', '0'],
      ];
      const byAgent = (a: unknown[], z: unknown[]) =>
        String(a[0]).localeCompare(String(z[0])) || Number(a[1]) - Number(z[1]);
      assert.deepEqual(votes.rows.map(row).sort(byAgent), expected);
      assert.deepEqual(
        (await h.ledger.panels.voteRowsByContract(run.contractId)).map((r) => [
          r.backupAgent,
          r.criterionIndex,
          r.vote,
          r.majorityOutcome,
          r.bondOutcome,
          r.reward.toString(),
        ]),
        expected,
      );
      assert.equal((await h.ledger.panels.voteRowsOf(BA3)).length, 2);
      // The ballots of BA1 and BA2 appear as agent.verified only now; BA3 has none.
      const verified = (await run.handle.query(eventsQuery)).flatMap((e) =>
        e.type === 'agent.verified' ? [e.agentId] : [],
      );
      assert.deepEqual([...verified].sort(), [BA1, BA2].sort());
      const attributes = (await run.handle.describe()).typedSearchAttributes;
      assert.equal(attributes.get(contractStatusKey), 'settled-fully-met');
      assert.equal(attributes.get(nextDeadlineKey), undefined);
    }));

  test('FOS with nobody eligible: an empty panel, every criterion unclear, the whole escrow paid', () =>
    withHarness(async (h) => {
      const run = await PATHS['standard-no-eligible'](h);
      await assertSettled(
        h,
        run,
        'settled-fully-met',
        { [CLIENT]: b(FUNDS - PRICE), [WORKER]: b(WORKER_FUNDS + PRICE), treasury: b(0n) },
        {},
      );
      const view = await h.view(run.handle);
      assert.deepEqual(view.criteriaMet, ['unclear', 'unclear']);
      assert.deepEqual(view.backupAgents, []);
      assert.deepEqual(await run.handle.query(votesQuery), { sealed: false, rows: [] });
    }));
});
