// A contract with milestones (docs/protocol.md §6a), worked one milestone at a time: each is delivered,
// reviewed (or put to a panel), resolved and settled by §7–§8 as if it were a contract of its own amount,
// criteria and share of the Worker Stake, in its own ledger batch (`<contractId>:milestone:<i>:settle`);
// what the later milestones need of the escrow, the stake and a standard contract's panel fees is held
// again in that batch. Then the next milestone starts `matched` (state.ts nextMilestone). A Worker
// absent on a milestone is absent for it and every later one: the rest of the escrow refunded, the rest
// of the stake slashed (§6), the milestones settled before standing. The last batch is the contract's
// last (`final`).
import type { SettlementPosting } from '../activity-interfaces';
import { contractSettledEvent, milestoneSettledEvent } from '../rules/event-constructors';
import type { ResolutionSource } from '../rules/events';
import type { HoldSplit } from '../rules/holds';
import {
  milestoneAmounts,
  milestonesFinalStatus,
  milestoneSettlementFor,
  milestoneStakeShares,
} from '../rules/milestones';
import { toWire } from '../rules/money';
import type { OutcomeEnding } from '../rules/outcomes';
import { panelFee } from '../rules/panel-fee';
import { cancellationFor } from '../rules/settlement';
import { type SettledStatus, type SettlementTier } from '../rules/status';
import { local, setLedgerScope } from './activity-proxies';
import type { Decision } from './decision';
import {
  applyDecision,
  beginResolution,
  closePanelAfterResolution,
  feeReturned,
  postingsFor,
  resolutionPostings,
} from './settlement/closing';
import { appendOutcomes } from './settlement/outcomes';
import type { Contract } from './state';
import { heldAmounts } from './holds';

/** The ids of milestone `i`'s holds and batches: `<contractId>:milestone:<i>:…` (none for the first). */
function milestoneScope(index: number): string | undefined {
  return index === 0 ? undefined : `milestone:${index}`;
}

const RESOLUTION_ENDING: { readonly [S in ResolutionSource]: OutcomeEnding } = {
  'client-approval': 'approved',
  'review-timeout': 'review-timed-out',
  'trusted-arbiter': 'arbiter',
  'panel-tally': 'panel',
};

/** A standard contract's panel fees for the milestones after `index` (held since creation). */
function laterPanelFees(c: Contract, index: number): bigint {
  if (c.terms.verificationMode !== 'standard') return 0n;
  return panelFee(c.params.baPanelSize, c.params) * BigInt(c.milestone!.plan.length - index - 1);
}

/** What stays for the later milestones, held again in the milestone's batch: one posting each. */
function heldAgain(c: Contract, rest: { escrow: bigint; stake: bigint; fee: bigint }) {
  const payer = c.panel.fees.panel?.payer ?? c.terms.client;
  const rows = [
    { key: 'escrow', owner: c.terms.client, kind: 'escrow', amount: rest.escrow },
    { key: 'stake', owner: c.match.worker!, kind: 'stake', amount: rest.stake },
    { key: 'fee', owner: payer, kind: 'dispute-bond', amount: rest.fee },
  ] as const;
  return rows
    .filter((r) => r.amount > 0n)
    .map((r) => ({
      key: r.key,
      amount: r.amount,
      posting: { type: 'hold', owner: r.owner, kind: r.kind, amount: toWire(r.amount) } as SettlementPosting,
    }));
}

/** The current milestone's resolution: its own settlement batch, then the next milestone or the end. */
async function settleMilestone(c: Contract, decision: Extract<Decision, { kind: 'resolve' }>): Promise<void> {
  const progress = c.milestone!;
  const { index, plan } = progress;
  const last = index === plan.length - 1;
  const t = beginResolution(c, decision);
  const price = c.match.price!;
  const m = milestoneSettlementFor(
    {
      escrowHeld: heldAmounts(c).escrow,
      stakeHeld: c.match.stake!.amount,
      amount: milestoneAmounts(price, plan)[index]!,
      stakeShare: milestoneStakeShares(c.match.stakeAmount(), plan)[index]!,
      disputeBond: c.review.bond?.amount ?? null,
    },
    decision.criteriaMet,
    c.params,
  );
  const feeRest = laterPanelFees(c, index);
  const settling = resolutionPostings(c, decision, t, m.ledgerHolds, feeRest);
  const rest = heldAgain(c, { escrow: m.escrowRest, stake: m.stakeRest, fee: feeRest });
  const { opIds } = await local.ledger.settle({
    contractId: c.contractId,
    scope: `milestone:${index}`,
    step: 'settle',
    postings: [...settling, ...rest.map((r) => r.posting)],
    ...(last ? { final: true } : {}),
  });
  await closePanelAfterResolution(c);
  const { settlement } = m;
  c.record(
    milestoneSettledEvent(c.eventContext('system'), {
      milestone: index,
      status: settlement.status,
      payment: settlement.payment,
      holds: settlement.holds,
    }),
  );
  const appealed = decision.source === 'panel-tally' && c.panel.first !== null;
  await appendOutcomes(c, {
    index,
    ending: appealed ? 'appeal' : RESOLUTION_ENDING[decision.source],
    payment: settlement.payment,
    criteriaMet: [...decision.criteriaMet],
    disputed: c.events.slice(progress.firstEvent).some((e) => e.type === 'contract.disputed'),
  });
  c.milestoneEnded({
    status: settlement.status,
    delivered: true,
    payment: settlement.payment,
    criteriaMet: [...decision.criteriaMet],
  });
  if (last) return endContract(c, []);
  const held = (key: 'escrow' | 'stake' | 'fee') => {
    const at = rest.findIndex((r) => r.key === key);
    return at === -1 ? null : { amount: rest[at]!.amount, holdId: opIds[settling.length + at]! };
  };
  const fee = held('fee');
  c.nextMilestone({
    escrow: held('escrow')!,
    stake: held('stake')!,
    panelFee: fee === null ? null : { ...fee, payer: c.panel.fees.panel!.payer },
  });
  setLedgerScope(milestoneScope(index + 1));
}

/**
 * Nothing delivered for the current milestone after an earlier one ended: the Worker is absent for it
 * and every later one. The escrow still held back to the Client, the stake still held slashed as §6
 * says, the fees held for later panels back to their payer; the settled milestones stand.
 */
const ABSENT = 'cancelled-absent' as const;

async function absentFromHere(c: Contract, decision: Extract<Decision, { kind: 'cancel' }>): Promise<void> {
  const { index, plan } = c.milestone!;
  const cancellation = cancellationFor('absent', heldAmounts(c), c.params);
  const fees = [c.panel.fees.panel, c.panel.fees.appeal].flatMap((f) => (f === null ? [] : [feeReturned(f)]));
  await local.ledger.settle({
    contractId: c.contractId,
    scope: `milestone:${index}`,
    step: 'absent',
    postings: [...postingsFor(c, cancellation.holds), ...fees],
    final: true,
  });
  c.record(
    milestoneSettledEvent(c.eventContext(decision.actor, decision.delegation), {
      milestone: index,
      status: ABSENT,
      payment: 0n,
      holds: cancellation.holds,
    }),
  );
  await appendOutcomes(c, { index, ending: 'absent', payment: 0n, criteriaMet: null, disputed: false });
  for (let i = index; i < plan.length; i++) {
    c.milestoneEnded({ status: ABSENT, delivered: false, payment: 0n, criteriaMet: null });
  }
  await endContract(c, cancellation.holds);
}

/** The contract's own ending, once a milestone was delivered: its status summarises the milestones'. */
function endContract(c: Contract, holds: readonly HoldSplit[]): void {
  const ended = c.milestone!.ended;
  const status = milestonesFinalStatus(ended) as SettledStatus;
  const paid = ended.reduce((sum, m) => sum + m.payment, 0n);
  c.settlement.settled(paid, status);
  const tier = status.slice('settled-'.length) as SettlementTier;
  c.record(contractSettledEvent(c.eventContext('system'), { status, tier, payment: paid, holds }));
}

/**
 * The pending decision of a contract with milestones: a resolution settles the current milestone; an
 * absence after a milestone ended ends the rest. Everything else (a cancellation before any milestone
 * ended: unmatched, by the Client, withdrawn, absent on the first) is the contract's own.
 */
export async function applyMilestoneDecision(c: Contract): Promise<void> {
  const decision = c.decision;
  if (c.milestone === null || decision === null) return applyDecision(c);
  if (decision.kind === 'resolve') return settleMilestone(c, decision);
  if (decision.reason === 'absent' && c.milestone.ended.length > 0) return absentFromHere(c, decision);
  return applyDecision(c);
}
