// The panel's tally (docs/protocol.md §8, rules/tally): a void round when fewer than a majority voted,
// else the majority's verdicts; the first panel's opens the appeal window, an appeal panel's is final.
// The money of the tally is posted with the settlement (settlement/closing.ts).
import { appealDeadline, finalTally, type FinalTally } from '../../rules/appeal';
import type { Address } from '../../rules/address';
import { agentVerifiedEvent, panelVoidedEvent } from '../../rules/event-constructors';
import { afterVoidRound } from '../../rules/recruitment';
import { roundVoid, voidRoundOutcomes, type TallyInput } from '../../rules/tally';
import { local } from '../activity-proxies';
import type { Contract } from '../state';
import { wakeNextSeatable } from './draw';
import { panelPostings } from './postings';
import type { Ballot } from './state';

/** At the end of the voting window: fewer than a majority of the seated panel voted, so the round is void. */
export function votingRoundVoid(c: Contract): boolean {
  const { current, rows, ballots } = c.panel;
  return current !== null && rows === null && roundVoid(current.members.length, ballots.length);
}

/**
 * A void round (silence decides nothing): each silent member loses its seat's slices to the Treasury,
 * each voter's seat comes back whole, in one batch; the seats are freed; a new panel is drawn without
 * the silent members, the fee kept for it — or, past the recruitment window, the arbiter decides.
 * The ballots of a void round are never published: they decided nothing.
 */
export async function voidRound(c: Contract): Promise<void> {
  const panel = c.panel.current;
  if (panel === null) throw new RangeError('no panel to void');
  const outcomes = voidRoundOutcomes(panelInput(c, panel.members, c.panel.ballots));
  await local.ledger.settle({
    contractId: c.contractId,
    step: `void-round-${c.panel.voidRounds}`,
    postings: panelPostings(c.contractId, outcomes, () => panel.voidRounds),
  });
  await local.panels.closeSeats({ contractId: c.contractId, members: [...panel.members] });
  await wakeNextSeatable(c);
  const silent = outcomes.filter((o) => !o.voted).map((o) => o.backupAgent);
  const now = Date.now();
  c.record(panelVoidedEvent(c.eventContext('system'), { panel: panel.members, silent }));
  c.panel.roundVoided(silent, afterVoidRound(c.panel.askedAt ?? panel.drawnAt, now, c.params));
}

function panelInput(c: Contract, members: readonly Address[], ballots: readonly Ballot[]): TallyInput {
  return {
    panel: members,
    votes: Object.fromEntries(ballots.map((b) => [b.voter, b.verdicts])),
    criteriaCount: c.terms.acceptanceCriteria.length,
    params: c.params,
  };
}

/**
 * The final tally (rules/appeal): the appeal panel's majority when there was an appeal, else the
 * first panel's; every seat of both panels scored against it. A drawn BA without a ballot is no vote.
 */
export function tallyOf(c: Contract): FinalTally {
  const { current: panel, ballots, first } = c.panel;
  if (panel === null) throw new RangeError('no panel to tally');
  const current = panelInput(c, panel.members, ballots);
  if (first === null) return finalTally(current, null);
  return finalTally(panelInput(c, first.members, first.ballots), current);
}

/**
 * A panel's tally. The first panel's majority becomes Criteria Met and the contract stays `resolved`
 * through the appeal window (its voters' verdicts are published now); an appeal panel's is final.
 */
export function decideTally(c: Contract): void {
  if (c.decision !== null || c.status === 'resolved') return;
  const { criteriaMet } = tallyOf(c);
  if (c.panel.first !== null) {
    c.decide({ kind: 'resolve', source: 'panel-tally', criteriaMet, actor: 'system' });
    return;
  }
  recordBallots(c, c.panel.ballots);
  // Criteria Met is known, the contract `resolved` through the appeal window.
  c.settlement.decided(criteriaMet);
  c.appeal.opened(appealDeadline(Date.now(), c.params), criteriaMet);
}

/** Votes are published at their panel's tally: each voter's verdict (agent.verified). */
export function recordBallots(c: Contract, ballots: readonly Ballot[]): void {
  for (const ballot of ballots) {
    c.record(
      agentVerifiedEvent(c.eventContext(ballot.voter), {
        agentId: ballot.voter,
        role: 'backup-agent',
        deliverySha256: c.work.delivery!.sha256,
        verdicts: ballot.verdicts,
      }),
    );
  }
}

/** Every drawn BA has voted. */
export function everyoneVoted(c: Contract): boolean {
  const { current, ballots } = c.panel;
  return current !== null && ballots.length === current.members.length;
}
