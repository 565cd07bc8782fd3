// Carrying out a decision: a cancellation (SPEC §5, §6) or a resolution and its settlement (§7a).
// The rules split every hold; this module maps roles to addresses and posts the whole split as ONE
// `settle` activity call, i.e. one atomic ledger batch.
import type { SettlementPosting } from '../../activities/ledger-activities';
import type { VoteRowView } from '../definitions';
import {
  agentVerifiedEvent,
  contractCancelledEvent,
  contractResolvedEvent,
  contractSettledEvent,
} from '../rules/event-constructors';
import type { HoldSplit, HoldParty } from '../rules/holds';
import { toWire } from '../rules/money';
import { cancellationFor, settlementFor } from '../rules/settlement';
import { cancelledStatus } from '../rules/status';
import type { Tally } from '../rules/tally';
import { local, scheduled, settleLast } from './activity-proxies';
import { tallyOf } from './panel';
import { panelPostings, slashedNonVoters } from './panel-postings';
import type { Contract, Decision } from './state';

function partyOf(c: Contract, role: HoldParty): string {
  if (role === 'treasury') return 'treasury';
  if (role === 'client') return c.terms.client;
  if (c.worker === null) throw new RangeError('a part to the Worker needs a matched Worker');
  return c.worker;
}

export function postingsFor(c: Contract, splits: readonly HoldSplit[]): SettlementPosting[] {
  // A Worker Stake that rounds to zero was never locked: there is no hold to post.
  return splits
    .filter((split) => split.amount > 0n)
    .map((split) => ({
      type: 'resolve',
      holdId: c.holdId(split.hold),
      parts: split.parts.map((p) => ({ to: partyOf(c, p.role), amount: toWire(p.amount) })),
    }));
}

async function applyCancellation(c: Contract, decision: Extract<Decision, { kind: 'cancel' }>) {
  const cancellation = cancellationFor(decision.reason, c.holds(), c.params);
  await settleLast({
    contractId: c.contractId,
    step: 'cancellation',
    postings: postingsFor(c, cancellation.holds),
  });
  c.transition(cancelledStatus(decision.reason));
  c.record(
    contractCancelledEvent(c.eventContext(decision.actor), {
      status: cancellation.status,
      reason: decision.reason,
      holds: cancellation.holds,
    }),
  );
}

/**
 * The tally's postings (bonds, eligibility slashes, mints) for the settlement batch. The non-voters'
 * eligibility holds are read first (an activity, so the batch is the same on every retry).
 */
async function tallyPostings(c: Contract, t: Tally): Promise<SettlementPosting[]> {
  const nonVoters = slashedNonVoters(t);
  const eligibility =
    nonVoters.length === 0 ? [] : await scheduled.panels.eligibilityHolds({ addresses: nonVoters });
  const bondHolds = new Map(c.ballots.map((b) => [b.voter, b.bond.holdId]));
  return panelPostings({ tally: t, bondHolds, eligibility });
}

/** Votes are published at the tally: each voter's verdict (agent.verified), then the vote rows. */
function recordBallots(c: Contract): void {
  for (const ballot of c.ballots) {
    c.record(
      agentVerifiedEvent(c.eventContext(ballot.voter), {
        agentId: ballot.voter,
        role: 'backup-agent',
        deliverySha256: c.delivery!.sha256,
        verdicts: ballot.verdicts,
      }),
    );
  }
}

function voteRowsOf(c: Contract, t: Tally): VoteRowView[] {
  return t.rows.map((r) => ({ contractId: c.contractId, ...r, reward: toWire(r.reward) }));
}

async function applyResolution(c: Contract, decision: Extract<Decision, { kind: 'resolve' }>) {
  const t = decision.source === 'panel-tally' ? tallyOf(c) : null;
  if (t !== null) recordBallots(c);
  c.resolving(decision.criteriaMet, t === null ? null : voteRowsOf(c, t));
  c.record(
    contractResolvedEvent(c.eventContext(decision.actor), {
      source: decision.source,
      criteriaMet: decision.criteriaMet,
    }),
  );
  const settlement = settlementFor(c.holds(), decision.criteriaMet, c.params);
  const panelMoney = t === null ? [] : await tallyPostings(c, t);
  await settleLast({
    contractId: c.contractId,
    step: 'settlement',
    postings: [...postingsFor(c, settlement.holds), ...panelMoney],
  });
  if (t !== null && c.panel!.members.length > 0) {
    await local.panels.closePanel({ contractId: c.contractId, rows: [...c.voteRows!] });
  }
  c.settled(settlement.payment, settlement.status);
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
