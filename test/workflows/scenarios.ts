// Every path of a fixed-price contract, driven the way the API drives it. The workflow tests assert
// their outcomes; test/histories/record.ts saves each one's history for the replay test.
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import {
  appealUpdate,
  acceptSignal,
  acceptUpdate,
  approveSignal,
  approveUpdate,
  cancelSignal,
  cancelUpdate,
  contractWorkflowId,
  declineUpdate,
  deliverUpdate,
  disputeUpdate,
  contractQuery,
  eventsQuery,
  voteUpdate,
  votesQuery,
  FailureType,
  withdrawSignal,
  withdrawUpdate,
} from '../../workflows/definitions';
import type { CallerInput, ContractOutcome, ContractView, MessageReceipt } from '../../workflows/definitions';
import type { UpdateDefinition } from '@temporalio/common';
import type { Verdict } from '../../workflows/rules/verdicts';
import { arbiterVerdictsUpdate } from '../../workflows/operator-messages';
import { DEFAULT_PARAMS, type ProtocolParams } from '../../workflows/rules/params';
import type { DeliveryEvidence } from '../../workflows/rules/scoring/evidence';
import { dailyMoltbookCheck, dailyMoltbookEvidence } from '../scoring/fixtures';
import { assertRefused, delivery, type Harness } from './harness';
import { agentOwner } from '../../store/ledger';
import {
  APPEAL_FEE,
  BA1,
  BA2,
  BA3,
  BAS,
  CLIENT,
  FUNDS,
  HOUR,
  MINUTE,
  OTHER,
  POOR,
  STRANGER,
  WORKER,
} from '../support/fixtures';

/** Five more eligible agents: an appeal panel's worth. */
export const APPEAL_BAS = ['4e', '5e', '6e', '7e', '8e'].map((b) => '0x' + b.repeat(20));

export interface PathRun {
  contractId: string;
  handle: WorkflowHandle;
  /** The workflow's result; null when the path leaves it running (standard mode awaits its panel). */
  outcome: ContractOutcome | null;
}

export type Path = (h: Harness) => Promise<PathRun>;

/** Waits for the workflow's result. */
export async function finish(contractId: string, handle: WorkflowHandle): Promise<PathRun> {
  return { contractId, handle, outcome: (await handle.result()) as ContractOutcome };
}

/** Sends the Update, then reads the view by query (the Update answers a small receipt). */
export async function send<I>(
  handle: WorkflowHandle,
  update: UpdateDefinition<MessageReceipt, [I]>,
  arg: I,
): Promise<ContractView> {
  await handle.executeUpdate(update, { args: [arg] });
  return handle.query(contractQuery);
}

/** Creates a contract from `body` (see `Harness.input`) as the API does. */
export async function started(
  h: Harness,
  body: Parameters<Harness['input']>[0] = {},
  params?: ProtocolParams,
) {
  const input = await h.input(body, params);
  const { handle } = await h.create(input);
  return { input, handle };
}

/** `update` from `refused.caller` is refused as Forbidden with `refused.code`; then `caller` sends it. */
export async function onlyFrom(
  handle: WorkflowHandle,
  update: UpdateDefinition<MessageReceipt, [CallerInput]>,
  caller: string,
  refused: { caller: string; code: string },
): Promise<ContractView> {
  await assertRefused(send(handle, update, { caller: refused.caller }), FailureType.Forbidden, refused.code);
  return send(handle, update, { caller });
}

export async function voteAll(handle: WorkflowHandle, ballots: [string, Verdict[]][]): Promise<void> {
  for (const [caller, votes] of ballots) await send(handle, voteUpdate, { caller, votes });
}

/** An FOP/FOS open tender: no named Worker. */
export const OPEN_TENDER = {
  awardMethod: 'open',
  worker: undefined,
  verificationMode: 'privacy-preserving',
} as const;

/** Every BA of BAS finds both criteria met. */
const ALL_MET: [string, Verdict[]][] = [
  [BA1, ['met', 'met']],
  [BA2, ['met', 'met']],
  [BA3, ['met', 'met']],
];

export const PATHS = {
  /** The Client cannot fund the escrow: the creating Update fails with 402 and the workflow ends holding nothing. */
  async 'not-created-insufficient-funds'(h) {
    const input = await h.input({ amount: (FUNDS + 1n).toString() });
    await assertRefused(h.create(input), FailureType.InsufficientFunds, 'insufficient_funds');
    return finish(input.contractId, h.client.getHandle(contractWorkflowId(input.contractId)));
  },

  /** FDP: the Client cancels while `created`. */
  async 'cancelled-by-client'(h) {
    const { input, handle } = await started(h);
    const view = await onlyFrom(handle, cancelUpdate, CLIENT, { caller: WORKER, code: 'not_client' });
    assert.equal(view.status, 'cancelled-by-client');
    return finish(input.contractId, handle);
  },

  /** FDP: the named Worker declines. */
  async 'cancelled-unmatched-declined'(h) {
    const { input, handle } = await started(h);
    const view = await onlyFrom(handle, declineUpdate, WORKER, { caller: OTHER, code: 'not_worker' });
    assert.equal(view.status, 'cancelled-unmatched');
    return finish(input.contractId, handle);
  },

  /** FOP: nobody accepts before the Match Deadline. */
  async 'cancelled-unmatched-deadline'(h) {
    const { input, handle } = await started(h, OPEN_TENDER);
    return finish(input.contractId, handle);
  },

  /** FDP: the Worker withdraws before the Withdrawal Deadline. */
  async 'cancelled-withdrawn'(h) {
    const { input, handle } = await started(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    const view = await onlyFrom(handle, withdrawUpdate, WORKER, { caller: CLIENT, code: 'not_worker' });
    assert.equal(view.status, 'cancelled-withdrawn');
    return finish(input.contractId, handle);
  },

  /** FDP: withdrawal refused after its deadline; no delivery by the Delivery Deadline → absent. */
  async 'cancelled-absent'(h) {
    const { input, handle } = await started(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    await h.sleep(2 * HOUR); // past the Withdrawal Deadline (t0 + 2 h), before the Delivery Deadline (t0 + 3 h)
    await assertRefused(send(handle, withdrawUpdate, { caller: WORKER }), FailureType.Conflict, 'late');
    assert.equal((await h.view(handle)).status, 'matched');
    return finish(input.contractId, handle);
  },

  /** FDP: delivered, the Client approves. */
  async 'settled-approved'(h) {
    const { input, handle } = await started(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    await assertRefused(send(handle, approveUpdate, { caller: CLIENT }), FailureType.Conflict, 'wrong_state');
    assert.equal((await send(handle, deliverUpdate, delivery(WORKER))).status, 'under-review');
    await assertRefused(send(handle, deliverUpdate, delivery(WORKER)), FailureType.Conflict, 'wrong_state');
    const view = await onlyFrom(handle, approveUpdate, CLIENT, { caller: WORKER, code: 'not_client' });
    assert.equal(view.status, 'settled-fully-met');
    return finish(input.contractId, handle);
  },

  /**
   * FDP with a machine-checkable criterion (the daily-posts worked example): the automatic verifier scores
   * the delivery's evidence `met` on delivery (6 of 7 posts, 89.667); the Client approves.
   */
  async 'settled-approved-auto-verified'(h) {
    const { input, handle, view } = await delivered(
      h,
      {
        acceptanceCriteria: [
          'friendly tone, no medical advice',
          { text: 'one post a day about health for a week', check: dailyMoltbookCheck },
        ],
      },
      [{ criterionIndex: 1, records: dailyMoltbookEvidence }],
    );
    assert.equal(view.autoVerification?.verdict, 'pass');
    assert.equal((await send(handle, approveUpdate, { caller: CLIENT })).status, 'settled-fully-met');
    return finish(input.contractId, handle);
  },

  /** FOP: an open tender won by the first accept; delivered; no review by the Review Deadline → approved. */
  async 'settled-auto-approved'(h) {
    const { input, handle } = await started(h, OPEN_TENDER);
    await assertRefused(
      send(handle, acceptUpdate, { caller: CLIENT }),
      FailureType.Forbidden,
      'client_cannot_accept',
    );
    await send(handle, acceptUpdate, { caller: WORKER });
    await assertRefused(
      send(handle, acceptUpdate, { caller: OTHER }),
      FailureType.Conflict,
      'already_matched',
    );
    await send(handle, deliverUpdate, delivery(WORKER));
    return finish(input.contractId, handle);
  },

  /** FOP: the first caller cannot fund its stake (402, nothing locked); the next caller wins. */
  async 'open-tender-failed-stake'(h) {
    const { input, handle } = await started(h, OPEN_TENDER);
    await assertRefused(
      send(handle, acceptUpdate, { caller: POOR }),
      FailureType.InsufficientFunds,
      'insufficient_funds',
    );
    const view = await send(handle, acceptUpdate, { caller: OTHER });
    assert.equal(view.worker, OTHER);
    await send(handle, deliverUpdate, delivery(OTHER));
    await send(handle, approveUpdate, { caller: CLIENT });
    return finish(input.contractId, handle);
  },

  /** FDP through Signals: rejected signals change nothing and are logged; a valid one cancels. */
  async 'signals-rejected-then-cancelled'(h) {
    const { input, handle } = await started(h);
    await handle.signal(approveSignal, { caller: STRANGER });
    await handle.signal(withdrawSignal, { caller: CLIENT });
    await handle.signal(acceptSignal, { caller: OTHER });
    await handle.signal(cancelSignal, { caller: 'not-an-address' });
    const events = await handle.query(eventsQuery);
    assert.equal(events.filter((e) => e.type === 'contract.message-rejected').length, 4);
    assert.equal((await h.view(handle)).status, 'created');
    await handle.signal(cancelSignal, { caller: CLIENT });
    return finish(input.contractId, handle);
  },
  /** FDP: the Client disputes (claims c2 not met); all three BAs find both criteria met → fully met. */
  async 'dispute-fully-met'(h) {
    await h.makeEligible();
    const { input, handle } = await delivered(h, {});
    await assertRefused(send(handle, disputeUpdate, { caller: WORKER }), FailureType.Forbidden, 'not_client');
    await assertRefused(
      send(handle, disputeUpdate, { caller: CLIENT, claims: ['met'] }),
      FailureType.BadInput,
      'invalid_input',
    );
    const view = await send(handle, disputeUpdate, { caller: CLIENT, claims: ['met', 'not met'] });
    assert.equal(view.status, 'disputed');
    assert.deepEqual([...view.backupAgents].sort(), [...BAS].sort());
    await assertRefused(send(handle, approveUpdate, { caller: CLIENT }), FailureType.Conflict, 'wrong_state');
    await voteAll(handle, ALL_MET);
    return finish(input.contractId, handle);
  },

  /** FDP: the panel splits the criteria (BA3 dissents) → partially met, pro-rata pay, bond back. */
  async 'dispute-partially-met'(h) {
    await h.makeEligible();
    const { input, handle } = await delivered(h, {});
    await send(handle, disputeUpdate, { caller: CLIENT });
    await voteAll(handle, [
      [BA1, ['met', 'not met']],
      [BA2, ['met', 'not met']],
      [BA3, ['unclear', 'met']],
    ]);
    return finish(input.contractId, handle);
  },

  /** FOP: the panel finds nothing met → none met, the Worker Stake slashed, bond back. */
  async 'dispute-none-met'(h) {
    await h.makeEligible();
    const { input, handle } = await delivered(h, OPEN_TENDER);
    await send(handle, disputeUpdate, { caller: CLIENT, claims: ['not met', 'not met'] });
    await voteAll(handle, [
      [BA1, ['not met', 'not met']],
      [BA2, ['not met', 'not met']],
      [BA3, ['not met', 'unclear']],
    ]);
    return finish(input.contractId, handle);
  },

  /**
   * FOP disputed with eight eligible agents: the first panel (three of them) finds nothing met against
   * the truth; the Worker appeals within the window (Appeal Bond held); the appeal panel (the other
   * five) finds both criteria met, which is final. A stranger and the Client cannot appeal after it.
   */
  async 'dispute-appeal-reversed'(h) {
    await h.makeEligible([...BAS, ...APPEAL_BAS]);
    const { input, handle } = await delivered(h, OPEN_TENDER);
    const disputed = await send(handle, disputeUpdate, { caller: CLIENT });
    const first = disputed.backupAgents;
    assert.equal(first.length, 3);
    await voteAll(
      handle,
      first.map((ba) => [ba, ['not met', 'not met']]),
    );
    const tallied = await h.view(handle);
    assert.equal(tallied.status, 'resolved');
    assert.deepEqual(tallied.criteriaMet, ['not met', 'not met']);
    assert.deepEqual(tallied.mayAppeal, ['client', 'worker']);
    await assertRefused(
      send(handle, appealUpdate, { caller: STRANGER }),
      FailureType.Forbidden,
      'not_a_party',
    );
    // The appellant brings the appeal panel's fee with its Appeal Bond.
    await h.ledger.deposit({
      id: 'extra:appeal-fee',
      asset: 'USDC',
      to: agentOwner(WORKER),
      amount: APPEAL_FEE,
    });
    const appealed = await send(handle, appealUpdate, { caller: WORKER });
    assert.equal(appealed.status, 'disputed');
    assert.equal(appealed.appealedBy, 'worker');
    const appealPanel = appealed.backupAgents.filter((ba) => !first.includes(ba));
    assert.deepEqual(
      [...appealPanel].sort(),
      [...BAS, ...APPEAL_BAS].filter((a) => !first.includes(a as (typeof first)[number])).sort(),
    );
    await assertRefused(send(handle, appealUpdate, { caller: CLIENT }), FailureType.Conflict, 'wrong_state');
    await voteAll(
      handle,
      appealPanel.map((ba) => [ba, ['met', 'met']]),
    );
    return finish(input.contractId, handle);
  },

  /** FDS: the panel is drawn at delivery and finds every criterion met; the Client cannot dispute. */
  async 'standard-fds-panel'(h) {
    await h.makeEligible();
    const { input, handle, view } = await delivered(h, { verificationMode: 'standard' });
    assert.equal(view.contractCode, 'FDS');
    await assertRefused(
      send(handle, disputeUpdate, { caller: CLIENT }),
      FailureType.Conflict,
      'standard_mode',
    );
    await voteAll(handle, ALL_MET);
    return finish(input.contractId, handle);
  },

  /**
   * FOS: BA3 never votes. Votes stay sealed while the window is open; a second vote and a stranger's
   * are refused; the window ends, the tally counts BA3 as no vote (its slices from its seat's hold);
   * a vote after that is refused.
   */
  async 'standard-fos-no-vote'(h) {
    await h.makeEligible();
    const { input, handle } = await delivered(h, { awardMethod: 'open', worker: undefined });
    await voteAll(handle, [
      [BA1, ['met', 'met']],
      [BA2, ['met', 'not met']],
    ]);
    await assertRefused(
      send(handle, voteUpdate, { caller: BA1, votes: ['met', 'met'] }),
      FailureType.Conflict,
      'already_voted',
    );
    await assertRefused(
      send(handle, voteUpdate, { caller: STRANGER, votes: ['met', 'met'] }),
      FailureType.Forbidden,
      'not_on_panel',
    );
    assert.deepEqual(await handle.query(votesQuery), { sealed: true });
    const during = await h.view(handle);
    assert.equal(during.status, 'under-review');
    assert.equal(during.voting?.tallied, false);
    assert.equal(during.criteriaMet, null);
    const events = await handle.query(eventsQuery);
    assert.equal(events.filter((e) => e.type === 'agent.verified').length, 0, 'no verdict before the tally');
    assert.deepEqual(await h.ledger.panels.openPanelsOf(BA3), [input.contractId]);
    const outcome = await handle.result();
    await assert.rejects(send(handle, voteUpdate, { caller: BA3, votes: ['met', 'met'] }));
    return { contractId: input.contractId, handle, outcome: outcome as ContractOutcome };
  },

  /**
   * FOS with nobody eligible: the contract waits (panelPending) and draws again on its retry timer;
   * BA1–BA3 lock their eligibility stake and, without anyone touching the contract, the next draw
   * seats them; they find both criteria met.
   */
  async 'standard-panel-recruited'(h) {
    const { input, handle, view } = await delivered(h, { awardMethod: 'open', worker: undefined });
    assert.equal(view.status, 'under-review');
    assert.equal(view.panelPending, true);
    assert.deepEqual(view.backupAgents, []);
    assert.equal(view.nextDeadline?.kind, 'recruitment');
    await h.sleep(5 * MINUTE);
    assert.equal((await h.view(handle)).panelPending, true, 'still nobody to draw');
    await h.makeEligible();
    await h.sleep(30 * MINUTE);
    const seated = await h.view(handle);
    assert.equal(seated.panelPending, false);
    assert.deepEqual([...seated.backupAgents].sort(), [...BAS].sort());
    await voteAll(handle, ALL_MET);
    return finish(input.contractId, handle);
  },

  /**
   * FOP disputed with nobody eligible and a one-hour recruitment window: the dispute waits with its
   * bond held; once the window passes the operator decides as trusted arbiter, `met` / `not met`.
   */
  async 'dispute-trusted-arbiter'(h) {
    const { input, handle } = await delivered(
      h,
      { awardMethod: 'open', worker: undefined, verificationMode: 'privacy-preserving' },
      undefined,
      { ...DEFAULT_PARAMS, baRecruitmentWindow: HOUR },
    );
    const disputed = await send(handle, disputeUpdate, { caller: CLIENT });
    assert.equal(disputed.status, 'disputed');
    assert.equal(disputed.panelPending, true);
    await assert.rejects(
      handle.executeUpdate(arbiterVerdictsUpdate, { args: [{ verdicts: ['met', 'met'] }] }),
    );
    await h.sleep(2 * HOUR);
    const waiting = await h.view(handle);
    assert.equal(waiting.awaitingArbiter, true);
    assert.equal(waiting.panelPending, false);
    assert.equal(waiting.status, 'disputed');
    await assert.rejects(
      handle.executeUpdate(arbiterVerdictsUpdate, { args: [{ verdicts: ['met', 'unclear' as 'met'] }] }),
    );
    const result = await handle.executeUpdate(arbiterVerdictsUpdate, {
      args: [{ verdicts: ['met', 'not met'] }],
    });
    assert.equal(result.status, 'settled-partially-met');
    return finish(input.contractId, handle);
  },
} satisfies Record<string, Path>;

/** Creates, accepts (WORKER) and delivers a contract, with `evidence` when given. */
async function delivered(
  h: Harness,
  body: Parameters<Harness['input']>[0],
  evidence?: DeliveryEvidence,
  params?: ProtocolParams,
) {
  const { input, handle } = await started(h, body, params);
  await send(handle, acceptUpdate, { caller: WORKER });
  const view = await send(handle, deliverUpdate, {
    ...delivery(WORKER),
    ...(evidence === undefined ? {} : { evidence }),
  });
  return { input, handle, view };
}

export type PathName = keyof typeof PATHS;
