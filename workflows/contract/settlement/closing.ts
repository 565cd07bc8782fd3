// Carrying out a decision: a cancellation (docs/protocol.md §5, §6) or a resolution and its settlement (§7a).
// The rules split every hold; this module maps roles to addresses and posts the whole split as ONE
// `settle` activity call, i.e. one atomic ledger batch.
import type { SettlementPosting } from '../../activity-interfaces';
import type { VoteRowView } from '../../definitions';
import {
  contractCancelledEvent,
  contractResolvedEvent,
  contractSettledEvent,
} from '../../rules/event-constructors';
import type { HoldSplit, HoldParty } from '../../rules/holds';
import { toWire } from '../../rules/money';
import { panelFeeShares } from '../../rules/panel-fee';
import type { ResolutionSource } from '../../rules/events';
import { cancellationFor, settlementFor } from '../../rules/settlement';
import { cancelledStatus } from '../../rules/status';
import type { Address } from '../../rules/address';
import type { BackupAgentOutcome, Tally } from '../../rules/tally';
import type { Verdict } from '../../rules/verdicts';
import { local, settleLast } from '../activity-proxies';
import { wakeNextSeatable } from '../panel/draw';
import { panelPostings } from '../panel/postings';
import type { Ballot } from '../panel/state';
import { recordBallots, tallyOf } from '../panel/tally';
import type { HeldFee } from '../phase';
import type { Decision } from '../decision';
import type { Contract } from '../state';
import { heldAmounts, holdIdOf } from '../holds';

function partyOf(c: Contract, role: HoldParty): string {
  if (role === 'treasury') return 'treasury';
  if (role === 'client') return c.terms.client;
  if (c.match.worker === null) throw new RangeError('a part to the Worker needs a matched Worker');
  return c.match.worker;
}

export function postingsFor(c: Contract, splits: readonly HoldSplit[]): SettlementPosting[] {
  // A Worker Stake that rounds to zero was never locked: there is no hold to post.
  return splits
    .filter((split) => split.amount > 0n)
    .map((split) => ({
      type: 'resolve',
      holdId: holdIdOf(c, split.hold),
      parts: split.parts.map((p) => ({ to: partyOf(c, p.role), amount: toWire(p.amount) })),
    }));
}

/** A fee that no panel earned goes back to its payer whole. */
export function feeReturned(fee: HeldFee): SettlementPosting {
  return { type: 'resolve', holdId: fee.holdId, parts: [{ to: fee.payer, amount: toWire(fee.amount) }] };
}

/** A tallied panel's fee: an even share to each member who voted, the rest to the Treasury (rules/panel-fee). */
function feePaid(fee: HeldFee, members: readonly Address[], ballots: readonly Ballot[]): SettlementPosting {
  const shares = panelFeeShares(fee.amount, members, new Set(ballots.map((b) => b.voter)));
  return {
    type: 'resolve',
    holdId: fee.holdId,
    parts: shares.map((p) => ({ to: p.to, amount: toWire(p.amount) })),
  };
}

/**
 * The panel fees at the resolution: after a tally, each round's fee to the panel that decided it (the
 * first panel's to the first panel, the appeal's to the appeal panel); when the trusted arbiter or a
 * review decided, every fee back to its payer (no Backup Agent is paid).
 */
function feePostings(
  c: Contract,
  source: ResolutionSource,
  /** What of the first panel's fee hold stays for later milestones: back to its payer, to be held again. */
  firstRest: bigint,
): SettlementPosting[] {
  const { fees, current, ballots, first: firstPanel } = c.panel;
  const { panel: held, appeal } = fees;
  const tallied = source === 'panel-tally' && current !== null;
  const postings: SettlementPosting[] = [];
  if (held !== null) {
    const first = { ...held, amount: held.amount - firstRest };
    const decided = firstPanel ?? (tallied ? { members: current!.members, ballots } : null);
    const posting = decided === null ? feeReturned(first) : feePaid(first, decided.members, decided.ballots);
    if (posting.type === 'resolve' && firstRest > 0n)
      posting.parts.push({ to: held.payer, amount: toWire(firstRest) });
    postings.push(posting);
  }
  if (appeal !== null) {
    postings.push(
      tallied && firstPanel !== null ? feePaid(appeal, current!.members, ballots) : feeReturned(appeal),
    );
  }
  return postings;
}

async function applyCancellation(c: Contract, decision: Extract<Decision, { kind: 'cancel' }>) {
  const cancellation = cancellationFor(decision.reason, heldAmounts(c), c.params);
  const fees = [c.panel.fees.panel, c.panel.fees.appeal].flatMap((f) => (f === null ? [] : [feeReturned(f)]));
  await settleLast({
    contractId: c.contractId,
    step: 'cancellation',
    postings: [...postingsFor(c, cancellation.holds), ...fees],
  });
  c.transition(cancelledStatus(decision.reason));
  c.record(
    contractCancelledEvent(c.eventContext(decision.actor, decision.delegation), {
      status: cancellation.status,
      reason: decision.reason,
      holds: cancellation.holds,
    }),
  );
}

function voteRowsOf(c: Contract, t: Tally): VoteRowView[] {
  return t.rows.map((r) => ({ contractId: c.contractId, ...r, reward: toWire(r.reward) }));
}

/** Seats nobody scores (the arbiter decided after an appeal found no panel): each bond back whole. */
function unscoredSeats(c: Contract, members: readonly Address[]): BackupAgentOutcome[] {
  const bond = c.params.baBond;
  return members.map((backupAgent) => ({
    backupAgent,
    voted: false,
    bondPosted: bond,
    bondReturned: bond,
    bondSlashed: 0n,
    tokensMinted: 0n,
  }));
}

/** The Appeal Bond: back to its party when the appeal changed an outcome, else to the Treasury. */
function appealBondPostings(c: Contract, criteriaMet: readonly Verdict[]): SettlementPosting[] {
  const { bond, window } = c.appeal;
  if (bond === null || window === null) return [];
  const changed = criteriaMet.some((v, i) => v !== window.firstOutcome[i]);
  const to = changed ? (bond.party === 'client' ? c.terms.client : c.match.worker!) : 'treasury';
  return [{ type: 'resolve', holdId: bond.holdId, parts: [{ to, amount: toWire(bond.amount) }] }];
}

/**
 * A resolution's first step, before any money moves: the tally's vote rows (an appeal panel's verdicts
 * published now; the first panel's were at its tally), Criteria Met, `resolved`, the resolution event.
 * Answers the tally, when a panel decided.
 */
export function beginResolution(c: Contract, decision: Extract<Decision, { kind: 'resolve' }>): Tally | null {
  const t = decision.source === 'panel-tally' ? tallyOf(c) : null;
  if (t !== null && c.panel.first !== null) recordBallots(c, c.panel.ballots);
  if (t !== null) c.panel.tallied(voteRowsOf(c, t));
  c.settlement.resolving(decision.criteriaMet);
  c.record(
    contractResolvedEvent(c.eventContext(decision.actor, decision.delegation), {
      source: decision.source,
      criteriaMet: decision.criteriaMet,
    }),
  );
  return t;
}

/**
 * The resolution's batch beside the holds' splits: the Appeal Bond, the panel fees (less `firstFeeRest`,
 * what a standard contract's later milestones keep of the first panel's fee) and every seat's bond.
 */
export function resolutionPostings(
  c: Contract,
  decision: Extract<Decision, { kind: 'resolve' }>,
  t: Tally | null,
  holds: readonly HoldSplit[],
  firstFeeRest = 0n,
): SettlementPosting[] {
  const { first, current } = c.panel;
  const seats = t !== null ? t.agents : unscoredSeats(c, first?.members ?? []);
  const voidRoundsOf = (a: Address): number =>
    first?.members.includes(a) === true ? first.voidRounds : (current?.voidRounds ?? 0);
  return [
    ...postingsFor(c, holds),
    ...appealBondPostings(c, decision.criteriaMet),
    ...feePostings(c, decision.source, firstFeeRest),
    ...panelPostings(c.contractId, seats, voidRoundsOf),
  ];
}

/** After the resolution's batch: the panel's seats are free again; a contract waiting for one waits no more. */
export async function closePanelAfterResolution(c: Contract): Promise<void> {
  if (c.panel.seated.length > 0) {
    await local.panels.closePanel({
      contractId: c.contractId,
      milestoneIndex: c.milestone?.index ?? null,
      rows: [...(c.panel.rows ?? [])],
    });
    await wakeNextSeatable(c); // its seats are free again
  }
  // Decided while it waited for a panel (the trusted arbiter): it waits no more.
  if (c.panel.recruitment !== null && c.panel.current === null)
    await local.panels.leaveWaitlist({ contractId: c.contractId });
}

async function applyResolution(c: Contract, decision: Extract<Decision, { kind: 'resolve' }>) {
  const t = beginResolution(c, decision);
  const settlement = settlementFor(heldAmounts(c), decision.criteriaMet, c.params);
  await settleLast({
    contractId: c.contractId,
    step: 'settlement',
    postings: resolutionPostings(c, decision, t, settlement.holds),
  });
  await closePanelAfterResolution(c);
  c.settlement.settled(settlement.payment, settlement.status);
  c.record(
    contractSettledEvent(c.eventContext('system'), {
      status: settlement.status,
      tier: settlement.tier,
      payment: settlement.payment,
      holds: settlement.holds,
    }),
  );
}

/** Carries out the pending decision; the contract ends terminal. */
export async function applyDecision(c: Contract): Promise<void> {
  const decision = c.decision;
  if (decision === null) throw new RangeError('no decision to apply');
  if (decision.kind === 'cancel') await applyCancellation(c, decision);
  else await applyResolution(c, decision);
}
