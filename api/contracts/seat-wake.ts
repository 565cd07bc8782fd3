// Waiting for seats (docs/protocol.md §8): an agent that locks eligibility stake may make a waiting
// contract seatable. The API wakes the first waiting contract the registry can seat now, in waiting
// order (rules/seats firstSeatable); that contract, once seated, wakes the next (workflows/contract/
// panel.ts wakeNextSeatable). A wake that fails changes no answer: the contract's retry timer is the
// fallback.
import { createPanelActivities } from '../../activities/panel-activities';
import type { ApiContext } from '../deps';

export function seatWaker(
  ctx: ApiContext,
  logError: (err: unknown) => void = console.error,
): () => Promise<void> {
  const panels = createPanelActivities({ ledger: ctx.ledger });
  const terms = { bond: ctx.params.baBond.toString(), minStake: ctx.params.baEligibilityStake.toString() };
  return async () => {
    try {
      const next = await panels.nextSeatable(terms);
      if (next !== null) await ctx.contracts.seatsFreed?.(next);
    } catch (error) {
      logError(error);
    }
  };
}
