// The Backup Agent panel inside the workflow: the stake-weighted draw over the ledger's registry
// (rules/draw, rules/seats), the seats held in the ledger, the wait for a full panel (rules/recruitment)
// and the tally (rules/tally) once every drawn BA voted or the window ended. The money of the tally is
// posted with the settlement (closing.ts).
import { drawPanel, roundSecret } from '../rules/draw';
import { votingWindowEnd } from '../rules/deadlines';
import { panelDrawnEvent } from '../rules/event-constructors';
import { toWire } from '../rules/money';
import { afterUnseatedDraw } from '../rules/recruitment';
import { drawableAgents } from '../rules/seats';
import { tally, type Tally } from '../rules/tally';
import { local, scheduled } from './activity-proxies';
import type { Contract } from './state';

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
  for (let attempt = 0; attempt < SEAT_ATTEMPTS; attempt++) {
    const registry = await scheduled.ledger.listEligibleAgents({
      minStake: toWire(c.params.baEligibilityStake),
    });
    const draw = drawPanel({
      contractId: c.contractId,
      deliveryHash: c.delivery.sha256,
      panelSize: c.params.baPanelSize,
      round: 'panel',
      registry: drawableAgents(
        registry.map((a) => ({ address: a.address, free: BigInt(a.stake), seated: BigInt(a.seated) })),
        c.params,
      ),
      exclude: [c.terms.client, c.worker],
      secret: roundSecret(c.drawSecret, 'panel'),
    });
    if (draw.panel.length === 0) break;
    const seats = await scheduled.panels.seatPanel({
      contractId: c.contractId,
      members: draw.panel,
      bond: toWire(c.params.baBond),
    });
    if (!seats.seated) continue; // an unlock took a member's free stake meanwhile: draw again
    await local.panels.openPanel({ contractId: c.contractId, members: draw.panel });
    const drawnAt = Date.now();
    const votingEndsAt = votingWindowEnd(drawnAt, c.params);
    c.panelDrawn({ members: draw.panel, drawnAt, votingEndsAt });
    c.record(panelDrawnEvent(c.eventContext('system'), draw, votingEndsAt));
    return;
  }
  c.recruiting(afterUnseatedDraw(c.recruitment, Date.now(), c.params));
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

/** Every drawn BA has voted. */
export function everyoneVoted(c: Contract): boolean {
  return c.panel !== null && c.ballots.length === c.panel.members.length;
}
