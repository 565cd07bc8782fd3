// Contracts with milestones (docs/protocol.md §6a), driven the way the API drives them: a plan of three
// milestones (30 % / 30 % / 40 % of the price, one or two criteria each) worked one at a time. The
// workflow tests assert their balances stage by stage; test/histories/record.ts saves two of them.
import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import {
  acceptUpdate,
  approveUpdate,
  deliverUpdate,
  requestChangesUpdate,
  type ContractView,
} from '../../workflows/definitions';
import type { ProtocolParams } from '../../workflows/rules/params';
import { CLIENT, HOUR, PRICE, WORKER, WORKER_STAKE } from '../support/fixtures';
import { delivery, type Harness } from './harness';
import { finish, send, started, type Path } from './scenarios';

export const SHARES = [3000, 3000, 4000] as const;
/** Each milestone's amount of PRICE (2.5 USDC): 0.75, 0.75, 1.0. */
export const AMOUNTS = [750_000n, 750_000n, 1_000_000n] as const;
/** Each milestone's share of WORKER_STAKE (0.25 USDC): 0.075, 0.075, 0.1. */
export const STAKE_SHARES = [75_000n, 75_000n, 100_000n] as const;

/**
 * Three milestones, `gap` hours apart: milestone i delivered by t0 + 3 h + i × gap, reviewed an hour
 * later (standard mode: no review deadline).
 */
export function milestonePlan(t0: number, opts: { gap?: number; standard?: boolean } = {}) {
  const gap = opts.gap ?? 2;
  const at = (hours: number) => new Date(t0 + hours * HOUR).toISOString();
  const criteria = [['outline covers every section'], ['draft of part one', 'sources cited'], ['final text']];
  return SHARES.map((shareBps, i) => ({
    title: `part ${i + 1}`,
    acceptanceCriteria: criteria[i]!,
    shareBps,
    deadlines: {
      delivery: at(3 + i * gap),
      ...(opts.standard === true ? {} : { review: at(4 + i * gap) }),
    },
  }));
}

/** A body with the plan: no contract-level criteria, the contract's delivery/review the plan's. */
export async function milestoneBody(h: Harness, overrides: Record<string, unknown> = {}, gap?: number) {
  const t0 = await h.now();
  const at = (hours: number) => new Date(t0 + hours * HOUR).toISOString();
  const standard = overrides.verificationMode === 'standard';
  return {
    acceptanceCriteria: undefined,
    deadlines: { match: at(1), withdrawal: at(2) },
    milestones: milestonePlan(t0, { ...(gap === undefined ? {} : { gap }), standard }),
    ...overrides,
  };
}

export async function startedWithMilestones(
  h: Harness,
  overrides: Record<string, unknown> = {},
  opts: { gap?: number; params?: ProtocolParams } = {},
): Promise<{ contractId: string; handle: WorkflowHandle }> {
  const body = await milestoneBody(h, overrides, opts.gap);
  const { input, handle } = await started(h, body as Parameters<Harness['input']>[0], opts.params);
  return { contractId: input.contractId, handle };
}

/** The Worker delivers the current milestone and the Client approves it; answers the view after. */
export async function deliverAndApprove(handle: WorkflowHandle): Promise<ContractView> {
  await send(handle, deliverUpdate, delivery(WORKER));
  return send(handle, approveUpdate, { caller: CLIENT });
}

export const MILESTONE_PATHS = {
  /** FDP, three milestones, each delivered and approved in turn: paid in full. */
  async 'milestones-approved'(h) {
    const { contractId, handle } = await startedWithMilestones(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    for (let i = 0; i < 3; i++) {
      const view = await deliverAndApprove(handle);
      assert.equal(view.status, i < 2 ? 'matched' : 'settled-fully-met');
    }
    return finish(contractId, handle);
  },

  /**
   * FDP, three milestones: the second is sent back once (a change request within it), redelivered and
   * approved; the others approved at once.
   */
  async 'milestones-revised'(h) {
    const { contractId, handle } = await startedWithMilestones(h);
    await send(handle, acceptUpdate, { caller: WORKER });
    await deliverAndApprove(handle);
    await send(handle, deliverUpdate, delivery(WORKER));
    const revised = await send(handle, requestChangesUpdate, { caller: CLIENT, criteria: [1], note: 'cite' });
    assert.equal(revised.status, 'matched');
    assert.equal(revised.currentMilestone, 1);
    assert.equal(revised.revisionCount, 1);
    await deliverAndApprove(handle);
    await deliverAndApprove(handle);
    return finish(contractId, handle);
  },
} satisfies Record<string, Path>;

/** What the Worker holds and has once milestones 0..n-1 were paid in full. */
export function workerAfter(paidMilestones: number, workerFunds: bigint) {
  const paid = AMOUNTS.slice(0, paidMilestones).reduce((s, a) => s + a, 0n);
  const stakeBack = STAKE_SHARES.slice(0, paidMilestones).reduce((s, a) => s + a, 0n);
  return { available: workerFunds - WORKER_STAKE + paid + stakeBack, held: WORKER_STAKE - stakeBack };
}

/** What the Client holds and has once milestones 0..n-1 were paid in full. */
export function clientAfter(paidMilestones: number, funds: bigint) {
  const paid = AMOUNTS.slice(0, paidMilestones).reduce((s, a) => s + a, 0n);
  return { available: funds - PRICE, held: PRICE - paid };
}
