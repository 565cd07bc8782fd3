// Drawing the Backup Agent panel (docs/protocol.md §8): the stake-weighted draw over the ledger's
// registry (rules/draw, rules/seats), the seats held in the ledger, and the wait for a full panel
// (rules/recruitment), in waiting order with the other contracts. The tally is tally.ts's.
import { getExternalWorkflowHandle } from '@temporalio/workflow';
import { contractWorkflowId, seatsFreedSignal } from '../../definitions';
import { drawPanel, roundSecret } from '../../rules/draw';
import { votingWindowEnd } from '../../rules/deadlines';
import { panelDrawnEvent } from '../../rules/event-constructors';
import { toWire } from '../../rules/money';
import { afterUnseatedDraw } from '../../rules/recruitment';
import { drawableAgents } from '../../rules/seats';
import { local, scheduled } from '../activity-proxies';
import type { Contract } from '../state';

/** Draws in a row whose seats lost a race to an unlock, before the contract waits like an empty registry. */
const SEAT_ATTEMPTS = 3;

/**
 * Draws the panel from every drawable agent of the registry, weighted by free eligibility stake, the
 * Client and the Worker excluded, seeded from the contract ID, the round's draw secret and the delivery
 * hash; holds each member's seat; records the draw (contract.panel-drawn) so anyone can recompute it.
 * Without enough drawable agents nobody is seated and the contract waits (rules/recruitment).
 */
export async function drawPanelFor(c: Contract): Promise<void> {
  const { delivery } = c.work;
  const { worker } = c.match;
  const p = c.panel;
  if (delivery === null || worker === null) throw new RangeError('a panel is drawn over a delivery');
  if (c.drawSecret === null) throw new RangeError('a panel is drawn with the contract’s draw secret');
  // An appeal panel: larger, none of the first panel, with the appeal round's secret.
  const round = p.first === null ? 'panel' : 'appeal';
  const panelSize = round === 'panel' ? c.params.baPanelSize : c.params.appealPanelSize;
  const exclude = [c.terms.client, worker, ...(p.first?.members ?? []), ...p.silent];
  // Its place in the waiting order: when it started waiting for this panel.
  const waiting = {
    contractId: c.contractId,
    since: p.recruitment?.since ?? p.askedAt ?? Date.now(),
    panelSize,
    exclude,
  };
  for (let attempt = 0; attempt < SEAT_ATTEMPTS; attempt++) {
    const registry = await scheduled.ledger.listEligibleAgents({
      minStake: toWire(c.params.baEligibilityStake),
    });
    const draw = drawPanel({
      contractId: c.contractId,
      deliveryHash: delivery.sha256,
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
      voidRounds: p.voidRounds,
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
    p.drawn({ members: draw.panel, drawnAt, votingEndsAt, voidRounds: p.voidRounds });
    c.record(panelDrawnEvent(c.eventContext('system'), draw, votingEndsAt));
    await wakeNextSeatable(c); // what stake is left may seat the next waiting contract
    return;
  }
  p.recruiting(afterUnseatedDraw(p.recruitment, Date.now(), c.params, p.askedAt));
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
