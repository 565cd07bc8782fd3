// The Backup Agent panel inside the workflow (SPEC §8): the draw (rules/draw over the ledger's
// registry), the seats in the panel registry, and the tally (rules/tally) once every drawn BA voted or
// the window ended. The money of the tally is posted with the settlement (closing.ts).
import { drawPanel } from '../rules/draw';
import { votingWindowEnd } from '../rules/deadlines';
import { panelDrawnEvent } from '../rules/event-constructors';
import { toWire } from '../rules/money';
import { tally, type Tally } from '../rules/tally';
import { local, scheduled } from './activity-proxies';
import type { Contract } from './state';

/**
 * Draws the panel from every agent holding the eligibility stake, the Client and the Worker excluded,
 * seeded from the contract ID, its draw secret and the delivery hash; records the draw (contract.panel-drawn) so anyone
 * can recompute it; seats it. An empty panel (nobody eligible) is tallied at once: every criterion unclear.
 */
export async function drawPanelFor(c: Contract): Promise<void> {
  if (c.delivery === null || c.worker === null) throw new RangeError('a panel is drawn over a delivery');
  const registry = await scheduled.ledger.listEligibleAgents({
    minStake: toWire(c.params.baEligibilityStake),
  });
  const draw = drawPanel({
    contractId: c.contractId,
    deliveryHash: c.delivery.sha256,
    panelSize: c.params.baPanelSize,
    // An auction's other bidders that hold the eligibility stake are drawn first (empty otherwise).
    priorityPool: c.bidderPool.filter((bidder) => registry.some((a) => a.address === bidder)),
    registry: registry.map((a) => a.address),
    exclude: [c.terms.client, c.worker],
    secret: c.drawSecret,
  });
  if (draw.panel.length > 0) await local.panels.openPanel({ contractId: c.contractId, members: draw.panel });
  const drawnAt = Date.now();
  const votingEndsAt = votingWindowEnd(drawnAt, c.params);
  c.panelDrawn({ members: draw.panel, drawnAt, votingEndsAt });
  c.record(panelDrawnEvent(c.eventContext('system'), draw, votingEndsAt));
  if (draw.panel.length === 0) decideTally(c);
}

/** The tally of the ballots in (rules/tally); a drawn BA without a ballot counts as no vote. */
export function tallyOf(c: Contract): Tally {
  if (c.panel === null) throw new RangeError('no panel to tally');
  return tally({
    panel: c.panel.members,
    votes: Object.fromEntries(c.ballots.map((b) => [b.voter, b.verdicts])),
    criteriaCount: c.terms.acceptanceCriteria.length,
    params: c.params,
  });
}

/** The panel's majority becomes Criteria Met; the main loop then posts the resolution. */
export function decideTally(c: Contract): void {
  if (c.decision !== null) return;
  c.decide({ kind: 'resolve', source: 'panel-tally', criteriaMet: tallyOf(c).criteriaMet, actor: 'system' });
}

/** Every drawn BA has voted (none still locking its bond). */
export function everyoneVoted(c: Contract): boolean {
  return c.panel !== null && c.votesInFlight.length === 0 && c.ballots.length === c.panel.members.length;
}
