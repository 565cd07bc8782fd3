// Disputes, Backup Agent panels, sealed votes and the tally (docs/protocol.md §7–§8) on the
// time-skipping server with the real ledger on SQLite: exact USDC and OCT balances of every party.
// Defaults: price 2.5 USDC, 2 criteria, baBond 10 USDC (slices of 5), reward 1 OCT per criterion.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  acceptUpdate,
  appealUpdate,
  deliverUpdate,
  eventsQuery,
  voteUpdate,
  votesQuery,
  type VoteRowView,
} from '../../workflows/definitions';
import { drawFromCandidates } from '../../workflows/rules/draw';
import { agentOwner } from '../../store/ledger';
import { arbiterVerdictsUpdate } from '../../workflows/operator-messages';
import { DEFAULT_PARAMS } from '../../workflows/rules/params';
import {
  awaitingArbiterKey,
  contractStatusKey,
  nextDeadlineKey,
  panelPendingKey,
} from '../../workflows/search-attributes';
import { assertRefused, delivery, useWorkflowSuite, type Harness } from './harness';
import {
  BA1,
  BA2,
  BA3,
  BAS,
  BA_BOND,
  BA_FUNDS,
  CLIENT,
  DAY,
  DISPUTE_BOND,
  APPEAL_FEE,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  PANEL_FEE,
  HOUR,
  MINUTE,
  PRICE,
  REWARD,
  STRANGER,
  WORKER,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import { APPEAL_BAS, PATHS, send, started, type PathRun } from './scenarios';
import { b, type Balance } from '../support/balances';

const withHarness = useWorkflowSuite();

/** A Backup Agent that voted: its seat back, its share of the panel fee paid. */
const paidBA = b(BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE);

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

/** A standard contract the panel found fully met: the price paid, every seat back, each Backup Agent rewarded for both criteria. */
function assertPanelFullyMet(h: Harness, run: PathRun): Promise<void> {
  return assertSettled(
    h,
    run,
    'settled-fully-met',
    {
      [CLIENT]: b(FUNDS - PRICE - PANEL_FEE),
      [WORKER]: b(WORKER_FUNDS + PRICE),
      treasury: b(0n),
      [BA1]: paidBA,
      [BA2]: paidBA,
      [BA3]: paidBA,
    },
    { [BA1]: 2n * REWARD, [BA2]: 2n * REWARD, [BA3]: 2n * REWARD },
  );
}

/** The settlement is ONE batch: every money op of the contract after the locks is `<id>:settlement:<n>`. */
async function assertOneBatch(h: Harness, contractId: string): Promise<void> {
  const ops = new Set((await h.ledger.postingsByContract(contractId)).map((p) => p.opId));
  const rest = [...ops].filter((id) => !id.startsWith(`${contractId}:settlement:`));
  for (const id of rest)
    assert.match(
      id,
      /:(escrow|stake:0x[0-9a-f]{40}|dispute-bond:0x[0-9a-f]{40}|ba-bond:0x[0-9a-f]{40}|panel-fee:panel)$/,
    );
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
          [CLIENT]: b(FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE),
          [WORKER]: b(WORKER_FUNDS + PRICE),
          treasury: b(DISPUTE_BOND),
          [BA1]: paidBA,
          [BA2]: paidBA,
          [BA3]: paidBA,
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
      assert.deepEqual(
        drawn.candidates.map((c) => [c.address, c.stake]),
        [...BAS].sort().map((a) => [a, ELIGIBILITY_STAKE.toString()]),
      );
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
          [CLIENT]: b(FUNDS - payment - PANEL_FEE),
          [WORKER]: b(WORKER_FUNDS + payment),
          // BA3: unclear vs met → half its 5 USDC slice; met vs not met → the whole slice.
          treasury: b(7_500_000n),
          [BA1]: paidBA,
          [BA2]: paidBA,
          // It voted: it is paid its share of the fee all the same.
          [BA3]: b(BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE - 7_500_000n),
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
          [CLIENT]: b(FUNDS + toClient - PANEL_FEE),
          [WORKER]: b(WORKER_FUNDS - WORKER_STAKE),
          treasury: b(WORKER_STAKE - toClient + 2_500_000n),
          [BA1]: paidBA,
          [BA2]: paidBA,
          [BA3]: b(BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE - 2_500_000n),
        },
        { [BA1]: 2n * REWARD, [BA2]: 2n * REWARD, [BA3]: REWARD },
      );
      assert.equal((await h.view(run.handle)).contractCode, 'FOP');
    }));

  test('FDS: the panel is drawn at delivery, votes while under review, fully met', () =>
    withHarness(async (h) => {
      const run = await PATHS['standard-fds-panel'](h);
      await assertPanelFullyMet(h, run);
      const types = (await run.handle.query(eventsQuery)).map((e) => e.type);
      assert.ok(!types.includes('contract.disputed'));
      assert.equal(types.indexOf('contract.panel-drawn'), types.indexOf('contract.delivered') + 1);
    }));

  test("FOS: a BA that never votes is slashed from its seat's hold; votes sealed until the tally; late vote refused", () =>
    withHarness(async (h) => {
      const run = await PATHS['standard-fos-no-vote'](h);
      await assertSettled(
        h,
        run,
        'settled-fully-met',
        {
          [CLIENT]: b(FUNDS - PRICE - PANEL_FEE),
          [WORKER]: b(WORKER_FUNDS + PRICE),
          // Its slice, and its share of the panel fee: it took a seat and did not serve.
          treasury: b(5_000_000n + FEE_SHARE),
          [BA1]: paidBA,
          [BA2]: paidBA,
          // c1 decided `met` without it: one 5 USDC slice from its seat; c2 unclear: nothing.
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

  test('FOS with nobody eligible waits, then seats the agents that become eligible, without anyone touching it', () =>
    withHarness(async (h) => {
      const run = await PATHS['standard-panel-recruited'](h);
      await assertPanelFullyMet(h, run);
      const view = await h.view(run.handle);
      assert.deepEqual(view.criteriaMet, ['met', 'met']);
      assert.equal(view.panelPending, false);
      const attributes = (await run.handle.describe()).typedSearchAttributes;
      assert.equal(attributes.get(panelPendingKey), false);
      assert.equal(attributes.get(awaitingArbiterKey), false);
    }));

  test('a dispute with nobody eligible waits with its bond held, then the trusted arbiter settles it; no BA paid or slashed', () =>
    withHarness(async (h) => {
      const run = await PATHS['dispute-trusted-arbiter'](h);
      const payment = PRICE / 2n;
      await assertSettled(
        h,
        run,
        'settled-partially-met',
        // Partially met: pro-rata pay, the Dispute Bond back to the Client.
        { [CLIENT]: b(FUNDS - payment), [WORKER]: b(WORKER_FUNDS + payment), treasury: b(0n) },
        { [CLIENT]: 0n, [WORKER]: 0n },
      );
      const events = await run.handle.query(eventsQuery);
      const verified = events.flatMap((e) =>
        e.type === 'agent.verified' ? [[e.agentId, e.role, e.verdict]] : [],
      );
      assert.deepEqual(verified, [
        [CLIENT, 'client', 'fail'],
        ['operator', 'trusted-arbiter', 'fail'],
      ]);
      const resolved = events.find((e) => e.type === 'contract.resolved');
      assert.ok(resolved?.type === 'contract.resolved');
      assert.equal(resolved.source, 'trusted-arbiter');
      assert.deepEqual(resolved.successCriteria, [
        { key: 'c1', met: true },
        { key: 'c2', met: false },
      ]);
      assert.ok(!events.some((e) => e.type === 'contract.panel-drawn'));
      assert.deepEqual(await run.handle.query(votesQuery), { sealed: false, rows: [] });
    }));

  test('standard mode with a short recruitment window: waits, then the arbiter decides; the escrow is never paid by default', () =>
    withHarness(async (h) => {
      const { handle, input } = await started(
        h,
        { awardMethod: 'open', worker: undefined },
        {
          ...DEFAULT_PARAMS,
          baRecruitmentWindow: 10 * MINUTE,
        },
      );
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      const pending = await h.view(handle);
      assert.equal(pending.panelPending, true);
      assert.equal((await handle.describe()).typedSearchAttributes.get(panelPendingKey), true);
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE - PANEL_FEE, PRICE + PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE, WORKER_STAKE),
      });
      await h.sleep(HOUR);
      const waiting = await h.view(handle);
      assert.equal(waiting.status, 'under-review');
      assert.equal(waiting.awaitingArbiter, true);
      assert.equal(waiting.nextDeadline, null);
      const attributes = (await handle.describe()).typedSearchAttributes;
      assert.equal(attributes.get(awaitingArbiterKey), true);
      assert.equal(attributes.get(panelPendingKey), false);
      // Still held after any time: nothing pays by default.
      await h.sleep(30 * DAY);
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE - PANEL_FEE, PRICE + PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE, WORKER_STAKE),
      });
      const result = await handle.executeUpdate(arbiterVerdictsUpdate, {
        args: [{ verdicts: ['not met', 'not met'] }],
      });
      assert.equal(result.status, 'settled-none-met');
      await handle.result();
      const toClient = (WORKER_STAKE * 8000n) / 10000n;
      // The panel fee back to the Client: no panel decided.
      await h.assertBalances({
        [CLIENT]: b(FUNDS + toClient),
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE),
        treasury: b(WORKER_STAKE - toClient),
      });
      await h.assertNothingPending(input.contractId);
      await h.ledger.audit();
    }));

  test('six contracts share one panel and one member never votes: all six settle, its slashes from its six seats', () =>
    withHarness(async (h) => {
      await h.makeEligible();
      // Six escrows and six stakes: more than the usual funds.
      await h.ledger.deposit({ id: 'extra:client', asset: 'USDC', to: agentOwner(CLIENT), amount: FUNDS });
      await h.ledger.deposit({
        id: 'extra:worker',
        asset: 'USDC',
        to: agentOwner(WORKER),
        amount: WORKER_FUNDS,
      });
      const runs = [];
      for (let i = 0; i < 6; i++) {
        const { handle, input } = await started(h, { awardMethod: 'open', worker: undefined });
        await send(handle, acceptUpdate, { caller: WORKER });
        const view = await send(handle, deliverUpdate, delivery(WORKER));
        assert.deepEqual([...view.backupAgents].sort(), [...BAS].sort());
        runs.push({ handle, input });
      }
      // Six seats each: 60 USDC of each 100 USDC stake held by seats, 40 free.
      const seats = await h.ledger.holdsOf(agentOwner(BA3), { kind: 'ba-bond', open: true });
      assert.equal(seats.length, 6);
      assert.deepEqual(
        (await h.ledger.eligibleAgents(1n)).find((e) => e.address === BA3),
        {
          address: BA3,
          stake: 40_000_000n,
          seated: 60_000_000n,
        },
      );
      for (const { handle } of runs) {
        await send(handle, voteUpdate, { caller: BA1, votes: ['met', 'met'] });
        await send(handle, voteUpdate, { caller: BA2, votes: ['met', 'met'] });
      }
      await h.sleep(4 * DAY);
      for (const { handle, input } of runs) {
        assert.deepEqual(await handle.result(), {
          created: true,
          status: 'settled-fully-met',
          contractId: input.contractId,
        });
        assert.equal((await h.view(handle)).status, 'settled-fully-met');
        await h.assertNothingPending(input.contractId);
      }
      // Both slices of every seat slashed: 6 × 10 USDC, all from BA3's seat holds.
      await h.assertBalances({
        [CLIENT]: b(2n * FUNDS - 6n * PRICE - 6n * PANEL_FEE),
        [WORKER]: b(2n * WORKER_FUNDS + 6n * PRICE),
        treasury: b(60_000_000n + 6n * FEE_SHARE),
        [BA1]: b(BA_FUNDS - ELIGIBILITY_STAKE + 6n * FEE_SHARE, ELIGIBILITY_STAKE),
        [BA2]: b(BA_FUNDS - ELIGIBILITY_STAKE + 6n * FEE_SHARE, ELIGIBILITY_STAKE),
        [BA3]: b(BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE - 60_000_000n),
      });
      assert.deepEqual(
        seats.map((s) => s.id).sort(),
        runs.map((r) => `${r.input.contractId}:ba-bond:${BA3}`).sort(),
      );
      for (const seat of seats) {
        const hold = await h.ledger.getHold(seat.id);
        assert.deepEqual(hold?.resolution?.parts, [{ to: 'treasury', amount: BA_BOND }]);
      }
      assert.equal(await h.tokens(BA1), 12n * REWARD);
      assert.equal(await h.tokens(BA3), 0n);
      await h.ledger.audit();
    }));

  test('appeal: the first panel voted against the truth, the appeal reverses it; settlement follows the appeal', () =>
    withHarness(async (h) => {
      const run = await PATHS['dispute-appeal-reversed'](h);
      const events = await run.handle.query(eventsQuery);
      const first = events.find((e) => e.type === 'contract.panel-drawn')!;
      assert.ok(first.type === 'contract.panel-drawn' && first.round === 'panel');
      const appeal = events.filter((e) => e.type === 'contract.panel-drawn')[1]!;
      assert.ok(appeal.type === 'contract.panel-drawn' && appeal.round === 'appeal');
      assert.equal(appeal.panel.length, 5);
      const appealBond = PRICE / 10n;
      await assertSettled(
        h,
        run,
        'settled-fully-met',
        {
          // Fully met: escrow to the Worker, the Dispute Bond to the Treasury; the Appeal Bond back.
          // Each panel's fee paid to its voters: the Client's 0.6, the Worker's 1 USDC (funded for it).
          [CLIENT]: b(FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE),
          [WORKER]: b(WORKER_FUNDS + PRICE),
          // Each first-panel seat lost both 5 USDC slices: 3 × 10 USDC.
          treasury: b(DISPUTE_BOND + 3n * BA_BOND),
          ...Object.fromEntries(
            first.panel.map((a) => [
              a,
              b(BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE - BA_BOND),
            ]),
          ),
          ...Object.fromEntries(appeal.panel.map((a) => [a, paidBA])),
        },
        {
          ...Object.fromEntries(first.panel.map((a) => [a, 0n])),
          ...Object.fromEntries(appeal.panel.map((a) => [a, 2n * REWARD])),
        },
      );
      assert.ok(appealBond > 0n);
      const appealed = events.find((e) => e.type === 'contract.appealed');
      assert.deepEqual(appealed?.type === 'contract.appealed' && [appealed.party, appealed.appealBond], [
        'worker',
        appealBond.toString(),
      ]);
      // Every verdict of both panels is an agent.verified event; the resolution keeps its successCriteria.
      const verified = events.filter((e) => e.type === 'agent.verified' && e.role === 'backup-agent');
      assert.equal(verified.length, 8);
      const resolved = events.find((e) => e.type === 'contract.resolved');
      assert.ok(resolved?.type === 'contract.resolved');
      assert.deepEqual(resolved.successCriteria, [
        { key: 'c1', met: true },
        { key: 'c2', met: true },
      ]);
      const votes = await run.handle.query(votesQuery);
      assert.ok(!votes.sealed);
      assert.equal(votes.rows.length, 8 * 2);
      assert.ok(
        votes.rows
          .filter((r) => first.panel.includes(r.backupAgent))
          .every((r) => r.bondOutcome === 'slashed'),
      );
    }));

  test('appeal: one that changes nothing loses its bond; after the window, by a stranger or twice it is refused', () =>
    withHarness(async (h) => {
      await h.makeEligible([...BAS, ...APPEAL_BAS]);
      const { handle, input } = await started(h, {
        awardMethod: 'open',
        worker: undefined,
        verificationMode: 'standard',
      });
      await send(handle, acceptUpdate, { caller: WORKER });
      const first = (await send(handle, deliverUpdate, delivery(WORKER))).backupAgents;
      for (const ba of first) await send(handle, voteUpdate, { caller: ba, votes: ['met', 'not met'] });
      await h.ledger.deposit({
        id: 'extra:appeal-fee',
        asset: 'USDC',
        to: agentOwner(WORKER),
        amount: APPEAL_FEE,
      });
      await assertRefused(send(handle, appealUpdate, { caller: STRANGER }), 'Forbidden', 'not_a_party');
      await send(handle, appealUpdate, { caller: CLIENT, waive: true });
      await assertRefused(
        send(handle, appealUpdate, { caller: CLIENT, waive: true }),
        'Conflict',
        'already_decided',
      );
      await assertRefused(send(handle, appealUpdate, { caller: CLIENT }), 'Conflict', 'already_decided');
      const appealed = await send(handle, appealUpdate, { caller: WORKER });
      assert.equal(appealed.status, 'disputed');
      await assertRefused(send(handle, appealUpdate, { caller: WORKER }), 'Conflict', 'wrong_state');
      const second = appealed.backupAgents.filter((a) => !first.includes(a));
      for (const ba of second) await send(handle, voteUpdate, { caller: ba, votes: ['met', 'not met'] });
      assert.equal(((await handle.result()) as { status: string }).status, 'settled-partially-met');
      const appealBond = PRICE / 10n;
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE / 2n - PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS + PRICE / 2n - appealBond),
        treasury: b(appealBond),
      });
      await h.assertNothingPending(input.contractId);
      await h.ledger.audit();
    }));

  test('appeal: both parties waive and it settles at once; an appeal after the window is refused', () =>
    withHarness(async (h) => {
      await h.makeEligible();
      const { handle, input } = await started(h, {
        awardMethod: 'open',
        worker: undefined,
        verificationMode: 'standard',
      });
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      for (const ba of BAS) await send(handle, voteUpdate, { caller: ba, votes: ['met', 'met'] });
      const tallied = await h.view(handle);
      assert.equal(tallied.status, 'resolved');
      assert.equal(tallied.nextDeadline?.kind, 'appeal');
      const deadline = Date.parse(tallied.appealDeadline!);
      await send(handle, appealUpdate, { caller: WORKER, waive: true });
      assert.equal((await h.view(handle)).status, 'resolved', 'one waiver: the Client may still appeal');
      const before = await h.now();
      await send(handle, appealUpdate, { caller: CLIENT, waive: true });
      assert.equal(((await handle.result()) as { status: string }).status, 'settled-fully-met');
      assert.ok(before < deadline, 'settled before the window ended');
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE - PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS + PRICE),
      });
      await h.assertNothingPending(input.contractId);

      // Another contract: nobody appeals; after the window it settles and an appeal changes nothing.
      const late = await started(h, { awardMethod: 'open', worker: undefined, verificationMode: 'standard' });
      await h.ledger.deposit({
        id: 'extra:late',
        asset: 'USDC',
        to: agentOwner(WORKER),
        amount: WORKER_FUNDS,
      });
      await send(late.handle, acceptUpdate, { caller: WORKER });
      await send(late.handle, deliverUpdate, delivery(WORKER));
      for (const ba of BAS) await send(late.handle, voteUpdate, { caller: ba, votes: ['met', 'met'] });
      await h.sleep(25 * HOUR);
      assert.equal((await h.view(late.handle)).status, 'settled-fully-met');
      await assert.rejects(send(late.handle, appealUpdate, { caller: CLIENT }));
      await h.assertNothingPending(late.input.contractId);
    }));
});
