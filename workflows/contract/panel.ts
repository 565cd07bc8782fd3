// The Backup Agent panel inside the workflow: the stake-weighted draw over the ledger's registry
// (rules/draw, rules/seats), the seats held in the ledger, the wait for a full panel (rules/recruitment)
// and the tally (rules/tally) once every drawn BA voted or the window ended. The money of the tally is
// posted with the settlement (closing.ts).
import { getExternalWorkflowHandle } from '@temporalio/workflow';
import { contractWorkflowId, seatsFreedSignal } from '../definitions';
import { drawPanel, roundSecret } from '../rules/draw';
import { votingWindowEnd } from '../rules/deadlines';
import { agentVerifiedEvent, panelDrawnEvent, panelVoidedEvent } from '../rules/event-constructors';
import { toWire } from '../rules/money';
import { afterUnseatedDraw, afterVoidRound } from '../rules/recruitment';
import { drawableAgents } from '../rules/seats';
import type { Address } from '../rules/address';
import { appealDeadline, finalTally, firstTallyFinal, type FinalTally } from '../rules/appeal';
import { roundVoid, voidRoundOutcomes, type TallyInput } from '../rules/tally';
import { local, scheduled } from './activity-proxies';
import { panelPostings } from './panel-postings';
import type { Ballot, Contract } from './state';

/** Draws in a row whose seats lost a race to an unlock, before the contract waits like an empty registry. */
const SEAT_ATTEMPTS = 3;

/**
 * Draws the panel from every drawable agent of the registry, weighted by free eligibility stake, the
 * Client and the Worker excluded, seeded from the contract ID, the round's draw secret and the delivery
 * hash; holds each member's seat; records the draw (contract.panel-drawn) so anyone can recompute it.
 * Without enough drawable agents nobody is seated and the contract waits (rules/recruitment).
 */
export async function drawPanelFor(c: Contract): Promise<void> {
  if (c.delivery === null || c.worker === null) throw new RangeError('a panel is drawn over a delivery');
  if (c.drawSecret === null) throw new RangeError('a panel is drawn with the contract’s draw secret');
  // An appeal panel: larger, none of the first panel, with the appeal round's secret.
  const round = c.firstPanel === null ? 'panel' : 'appeal';
  const panelSize = round === 'panel' ? c.params.baPanelSize : c.params.appealPanelSize;
  const exclude = [c.terms.client, c.worker, ...(c.firstPanel?.members ?? []), ...c.silent];
  // Its place in the waiting order: when it started waiting for this panel.
  const waiting = {
    contractId: c.contractId,
    since: c.recruitment?.since ?? c.panelAskedAt ?? Date.now(),
    panelSize,
    exclude,
  };
  for (let attempt = 0; attempt < SEAT_ATTEMPTS; attempt++) {
    const registry = await scheduled.ledger.listEligibleAgents({
      minStake: toWire(c.params.baEligibilityStake),
    });
    const draw = drawPanel({
      contractId: c.contractId,
      deliveryHash: c.delivery.sha256,
      panelSize,
      round,
      registry: drawableAgents(
        registry.map((a) => ({ address: a.address, free: BigInt(a.stake), seated: BigInt(a.seated) })),
        c.params,
      ),
      exclude,
      secret: roundSecret(c.drawSecret, round),
    });
    if (draw.panel.length === 0) {
      await scheduled.panels.awaitSeats(waiting);
      break;
    }
    const seats = await scheduled.panels.seatPanel({
      contractId: c.contractId,
      members: draw.panel,
      bond: toWire(c.params.baBond),
      voidRounds: c.voidRounds,
      queue: { ...waiting, minStake: toWire(c.params.baEligibilityStake) },
    });
    if (!seats.seated) {
      // A contract that started waiting first can be seated now: it goes first, this one waits its turn.
      if (seats.ahead !== undefined) {
        if (await wakeContract(seats.ahead)) break;
        await local.panels.leaveWaitlist({ contractId: seats.ahead }); // it ended: off the list
      }
      continue; // an unlock took a member's free stake meanwhile: draw again
    }
    await local.panels.openPanel({ contractId: c.contractId, members: draw.panel });
    const drawnAt = Date.now();
    const votingEndsAt = votingWindowEnd(drawnAt, c.params);
    c.panelDrawn({ members: draw.panel, drawnAt, votingEndsAt, voidRounds: c.voidRounds });
    c.record(panelDrawnEvent(c.eventContext('system'), draw, votingEndsAt));
    await wakeNextSeatable(c); // what stake is left may seat the next waiting contract
    return;
  }
  c.recruiting(afterUnseatedDraw(c.recruitment, Date.now(), c.params, c.panelAskedAt));
}

/** Tells a waiting contract that seats may be free; false when it has ended (no such open workflow). */
async function wakeContract(contractId: string): Promise<boolean> {
  try {
    await getExternalWorkflowHandle(contractWorkflowId(contractId)).signal(seatsFreedSignal);
    return true;
  } catch {
    return false;
  }
}

/** Contracts a wake may skip because they ended while still listed, before the chain gives up. */
const STALE_WAKES = 3;

/**
 * After this contract freed or left stake (its seats released, or seated with stake to spare): wakes
 * the first waiting contract the registry can seat now, in waiting order. Each contract woken and
 * seated wakes the next, so freed stake seats waiting contracts one after another in their order.
 */
export async function wakeNextSeatable(c: Contract): Promise<void> {
  for (let i = 0; i < STALE_WAKES; i++) {
    const next = await local.panels.nextSeatable({
      bond: toWire(c.params.baBond),
      minStake: toWire(c.params.baEligibilityStake),
    });
    if (next === null || next === c.contractId || (await wakeContract(next))) return;
    await local.panels.leaveWaitlist({ contractId: next });
  }
}

/** At the end of the voting window: fewer than a majority of the seated panel voted, so the round is void. */
export function votingRoundVoid(c: Contract): boolean {
  return c.panel !== null && c.voteRows === null && roundVoid(c.panel.members.length, c.ballots.length);
}

/**
 * A void round (silence decides nothing): each silent member loses its seat's slices to the Treasury,
 * each voter's seat comes back whole, in one batch; the seats are freed; a new panel is drawn without
 * the silent members, the fee kept for it — or, past the recruitment window, the arbiter decides.
 * The ballots of a void round are never published: they decided nothing.
 */
export async function voidRound(c: Contract): Promise<void> {
  const panel = c.panel;
  if (panel === null) throw new RangeError('no panel to void');
  const outcomes = voidRoundOutcomes(panelInput(c, panel.members, c.ballots));
  await local.ledger.settle({
    contractId: c.contractId,
    step: `void-round-${c.voidRounds}`,
    postings: panelPostings(c.contractId, outcomes, () => panel.voidRounds),
  });
  await local.panels.closeSeats({ contractId: c.contractId, members: [...panel.members] });
  await wakeNextSeatable(c);
  const silent = outcomes.filter((o) => !o.voted).map((o) => o.backupAgent);
  const now = Date.now();
  c.record(panelVoidedEvent(c.eventContext('system'), { panel: panel.members, silent }));
  c.roundVoided(silent, afterVoidRound(c.panelAskedAt ?? panel.drawnAt, now, c.params));
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
  if (c.panel === null) throw new RangeError('no panel to tally');
  const current = panelInput(c, c.panel.members, c.ballots);
  if (c.firstPanel === null) return finalTally(current, null);
  return finalTally(panelInput(c, c.firstPanel.members, c.firstPanel.ballots), current);
}

/**
 * A panel's tally. The first panel's majority becomes Criteria Met and the contract stays `resolved`
 * through the appeal window (its voters' verdicts are published now); an appeal panel's is final.
 */
export function decideTally(c: Contract): void {
  if (c.decision !== null || c.status === 'resolved') return;
  const { criteriaMet } = tallyOf(c);
  if (c.firstPanel !== null) {
    c.decide({ kind: 'resolve', source: 'panel-tally', criteriaMet, actor: 'system' });
    return;
  }
  recordBallots(c, c.ballots);
  c.tallied(criteriaMet, appealDeadline(Date.now(), c.params));
}

/** The first tally stands once nobody may appeal it any more: the main loop then settles it. */
export function settleUnappealed(c: Contract): void {
  if (c.decision !== null || c.appeal === null || !firstTallyFinal(c.appeal, Date.now())) return;
  c.decide({
    kind: 'resolve',
    source: 'panel-tally',
    criteriaMet: [...c.appeal.firstOutcome],
    actor: 'system',
  });
}

/** Votes are published at their panel's tally: each voter's verdict (agent.verified). */
export function recordBallots(c: Contract, ballots: readonly Ballot[]): void {
  for (const ballot of ballots) {
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

/** Every drawn BA has voted. */
export function everyoneVoted(c: Contract): boolean {
  return c.panel !== null && c.ballots.length === c.panel.members.length;
}
