// Silence decides nothing and the panel fee (docs/protocol.md §8) on the time-skipping server with the
// real ledger on SQLite: a round in which fewer than a majority voted is void (silent seats slashed,
// voters' bonds back, the fee kept), a new panel is drawn without the silent members, and past the
// recruitment window the trusted arbiter decides with every fee returned. A silent panel or a silent
// appeal panel never pays a disputed escrow in full. Exact balances, every ledger invariant audited.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  acceptUpdate,
  appealUpdate,
  approveUpdate,
  deliverUpdate,
  disputeUpdate,
  eventsQuery,
  voteUpdate,
  type ContractView,
} from '../../workflows/definitions';
import { agentOwner } from '../../store/ledger';
import { arbiterVerdictsUpdate } from '../../workflows/operator-messages';
import { DEFAULT_PARAMS, type ProtocolParams } from '../../workflows/rules/params';
import { assertRefused, delivery, useWorkflowSuite, type Harness } from './harness';
import {
  APPEAL_FEE,
  BAS,
  BA_BOND,
  BA_FUNDS,
  CLIENT,
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  HOUR,
  PANEL_FEE,
  PRICE,
  WORKER,
  WORKER_FUNDS,
  WORKER_STAKE,
} from '../support/fixtures';
import { APPEAL_BAS, send, started } from './scenarios';
import { b } from '../support/balances';

const withHarness = useWorkflowSuite();

/** Eight eligible agents; a panel votes for an hour; the recruitment window is 3 hours. */
const PARAMS: ProtocolParams = { ...DEFAULT_PARAMS, baVotingWindow: HOUR, baRecruitmentWindow: 3 * HOUR };
const REGISTRY = [...BAS, ...APPEAL_BAS];

const untouched = b(BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE);
/** A silent member of a void round: both 5 USDC slices of its seat to the Treasury. */
const slashedSilent = b(BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE - BA_BOND);

/** An open-tender, privacy-preserving contract matched, delivered and disputed by the Client. */
async function disputed(h: Harness) {
  await h.makeEligible(REGISTRY);
  const { input, handle } = await started(
    h,
    { awardMethod: 'open', worker: undefined, verificationMode: 'privacy-preserving' },
    PARAMS,
  );
  await send(handle, acceptUpdate, { caller: WORKER });
  await send(handle, deliverUpdate, delivery(WORKER));
  const view = await send(handle, disputeUpdate, { caller: CLIENT });
  assert.equal(view.backupAgents.length, 3);
  return { contractId: input.contractId, handle, view };
}

const panelOf = (view: ContractView, before: readonly string[] = []) =>
  view.backupAgents.filter((a) => !before.includes(a));

describe('the panel fee (time-skipping server, real ledger on SQLite)', () => {
  test('a standard-mode Client that can fund the escrow but not the fee is refused 402: nothing held', () =>
    withHarness(async (h) => {
      const input = await h.input(
        {
          amount: (FUNDS - PANEL_FEE + 1n).toString(),
          awardMethod: 'open',
          worker: undefined,
          verificationMode: 'standard',
        },
        PARAMS,
      );
      await assertRefused(h.create(input), 'InsufficientFunds', 'insufficient_funds');
      await h.assertBalances({ [CLIENT]: b(FUNDS) });
      await h.assertNothingPending(input.contractId);
    }));

  test('a dispute whose Client can fund its bond but not the fee with it is refused 402, changing nothing', () =>
    withHarness(async (h) => {
      await h.makeEligible(REGISTRY);
      // After the escrow the Client holds 0.5 USDC: enough for the 0.475 Dispute Bond, not with the 0.6 fee.
      const price = FUNDS - 500_000n;
      const { input, handle } = await started(
        h,
        {
          amount: price.toString(),
          awardMethod: 'open',
          worker: undefined,
          verificationMode: 'privacy-preserving',
        },
        PARAMS,
      );
      await h.ledger.deposit({ id: 'extra:stake', asset: 'USDC', to: agentOwner(WORKER), amount: FUNDS });
      await send(handle, acceptUpdate, { caller: WORKER });
      await send(handle, deliverUpdate, delivery(WORKER));
      await assertRefused(
        send(handle, disputeUpdate, { caller: CLIENT }),
        'InsufficientFunds',
        'insufficient_funds',
      );
      const view = await h.view(handle);
      assert.equal(view.status, 'under-review');
      assert.equal(view.disputeBond, null);
      await h.assertBalances({ [CLIENT]: b(500_000n, price) });
      assert.deepEqual(
        (await h.ledger.holdsByContract(input.contractId)).filter((x) => x.kind === 'dispute-bond'),
        [],
      );
      // Its next step still succeeds: it approves, and the contract settles.
      await send(handle, approveUpdate, { caller: CLIENT });
      assert.equal(((await handle.result()) as { status: string }).status, 'settled-fully-met');
      await h.assertNothingPending(input.contractId);
      await h.ledger.audit();
    }));
});

describe('silence decides nothing (time-skipping server, real ledger on SQLite)', () => {
  test('one vote of three: the round is void, the silent two slashed and never drawn again, a new panel decides and is paid the fee', () =>
    withHarness(async (h) => {
      const { contractId, handle, view } = await disputed(h);
      const first = view.backupAgents;
      const [voter, ...silent] = first as [string, string, string];
      // The dispute holds its bond and the panel fee together.
      await h.assertBalances({
        [CLIENT]: b(FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE, PRICE + DISPUTE_BOND + PANEL_FEE),
      });
      await send(handle, voteUpdate, { caller: voter, votes: ['met', 'met'] });
      await h.sleep(HOUR + 1_000);

      const redrawn = await h.view(handle);
      assert.equal(redrawn.status, 'disputed', 'a void round decides nothing');
      assert.equal(redrawn.criteriaMet, null);
      const second = redrawn.backupAgents;
      assert.equal(second.length, 3);
      for (const s of silent)
        assert.ok(!second.includes(s as (typeof second)[number]), 'a silent member drawn again');
      // Silent seats slashed (both slices), the voter's bond back, the fee still held for the next panel.
      for (const s of silent)
        if (!second.includes(s as never)) await h.assertBalances({ [s]: slashedSilent });
      const events = await handle.query(eventsQuery);
      const voided = events.find((e) => e.type === 'contract.panel-voided');
      assert.ok(voided?.type === 'contract.panel-voided');
      assert.deepEqual([...voided.silent].sort(), [...silent].sort());
      assert.equal(events.filter((e) => e.type === 'contract.panel-drawn').length, 2);
      assert.equal((await h.ledger.getHold(`${contractId}:panel-fee:panel`))?.status, 'open');
      // The void round's ballot was never published and the old panel cannot vote any more.
      assert.ok(!events.some((e) => e.type === 'agent.verified' && e.agentId === voter));
      for (const s of silent)
        await assertRefused(
          send(handle, voteUpdate, { caller: s, votes: ['met', 'met'] }),
          'Forbidden',
          'not_on_panel',
        );

      for (const ba of second) await send(handle, voteUpdate, { caller: ba, votes: ['met', 'not met'] });
      const result = (await handle.result()) as { status: string };
      assert.equal(result.status, 'settled-partially-met');
      const payment = PRICE / 2n;
      const expected: Record<string, ReturnType<typeof b>> = {
        [CLIENT]: b(FUNDS - payment - PANEL_FEE),
        [WORKER]: b(WORKER_FUNDS + payment),
        treasury: b(2n * BA_BOND),
      };
      for (const a of REGISTRY) {
        const seatedLast = second.includes(a as never);
        const wasSilent = silent.includes(a);
        expected[a] = b(
          BA_FUNDS - ELIGIBILITY_STAKE + (seatedLast ? FEE_SHARE : 0n),
          ELIGIBILITY_STAKE - (wasSilent ? BA_BOND : 0n),
        );
      }
      await h.assertBalances(expected);
      await h.assertNothingPending(contractId);
      await h.ledger.audit();
      for (const a of REGISTRY)
        assert.deepEqual(await h.ledger.panels.openPanelsOf(a), [], `${a} still seated`);
    }));

  test('a panel that never votes, again and again: never paid in full; past the window the arbiter decides, the fee back, the bond not slashed', () =>
    withHarness(async (h) => {
      const { contractId, handle } = await disputed(h);
      const silentAll = new Set<string>();
      for (let round = 0; round < 2; round++) {
        for (const a of (await h.view(handle)).backupAgents) silentAll.add(a);
        await h.sleep(HOUR + 1_000);
        const view = await h.view(handle);
        assert.equal(view.status, 'disputed');
        assert.equal(view.payment, null);
      }
      // Six silent agents: two left, no full panel; the window (3 h from the dispute) ends at the arbiter.
      assert.equal(silentAll.size, 6);
      const waiting = await h.view(handle);
      assert.equal(waiting.panelPending, true);
      await h.sleep(HOUR + 1_000);
      const arbiter = await h.view(handle);
      assert.equal(arbiter.awaitingArbiter, true);
      assert.equal(arbiter.status, 'disputed');
      await h.assertBalances({ [WORKER]: b(WORKER_FUNDS - WORKER_STAKE, WORKER_STAKE) });
      const result = await handle.executeUpdate(arbiterVerdictsUpdate, {
        args: [{ verdicts: ['not met', 'not met'] }],
      });
      assert.equal(result.status, 'settled-none-met');
      await handle.result();
      const toClient = (WORKER_STAKE * 8000n) / 10000n;
      const expected: Record<string, ReturnType<typeof b>> = {
        // Escrow, Dispute Bond and panel fee all back to the Client; the slashed stake's share too.
        [CLIENT]: b(FUNDS + toClient),
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE),
        treasury: b(WORKER_STAKE - toClient + 6n * BA_BOND),
      };
      for (const a of REGISTRY) expected[a] = silentAll.has(a) ? slashedSilent : untouched;
      await h.assertBalances(expected);
      const events = await handle.query(eventsQuery);
      assert.equal(events.filter((e) => e.type === 'contract.panel-voided').length, 2);
      await h.assertNothingPending(contractId);
      await h.ledger.audit();
    }));

  test('a silent appeal panel never overturns a decisive first panel: void, then the arbiter; the appeal fee back', () =>
    withHarness(async (h) => {
      const { contractId, handle, view } = await disputed(h);
      const first = view.backupAgents;
      for (const ba of first) await send(handle, voteUpdate, { caller: ba, votes: ['not met', 'not met'] });
      assert.deepEqual((await h.view(handle)).criteriaMet, ['not met', 'not met']);
      await h.ledger.deposit({
        id: 'extra:appeal-fee',
        asset: 'USDC',
        to: agentOwner(WORKER),
        amount: APPEAL_FEE,
      });
      const appealed = await send(handle, appealUpdate, { caller: WORKER });
      const appealPanel = panelOf(appealed, first);
      assert.equal(appealPanel.length, 5);
      // Nobody of the appeal panel votes.
      await h.sleep(HOUR + 1_000);
      const afterVoid = await h.view(handle);
      assert.equal(afterVoid.status, 'disputed', 'silence overturned nothing');
      assert.equal(afterVoid.payment, null);
      // Eight agents: the first panel is excluded, the five silent ones too: nobody left to draw.
      assert.equal(afterVoid.panelPending, true);
      await h.sleep(3 * HOUR);
      assert.equal((await h.view(handle)).awaitingArbiter, true);
      await handle.executeUpdate(arbiterVerdictsUpdate, { args: [{ verdicts: ['not met', 'not met'] }] });
      assert.equal(((await handle.result()) as { status: string }).status, 'settled-none-met');
      const toClient = (WORKER_STAKE * 8000n) / 10000n;
      const appealBond = PRICE / 10n;
      const expected: Record<string, ReturnType<typeof b>> = {
        // The first panel served: its fee is paid to it. The Dispute Bond back (none met).
        [CLIENT]: b(FUNDS + toClient - PANEL_FEE),
        // The appeal changed nothing: its bond to the Treasury; its fee back (no appeal panel decided).
        [WORKER]: b(WORKER_FUNDS - WORKER_STAKE - appealBond + APPEAL_FEE),
        treasury: b(WORKER_STAKE - toClient + appealBond + 5n * BA_BOND),
      };
      for (const a of first) expected[a] = b(BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE);
      for (const a of appealPanel) expected[a] = slashedSilent;
      await h.assertBalances(expected);
      await h.assertNothingPending(contractId);
      await h.ledger.audit();
    }));
});
