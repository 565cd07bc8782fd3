// Waiting for seats (docs/protocol.md §8): an agent that locks eligibility stake may make a waiting
// contract seatable. The API wakes the first waiting contract the registry can seat now, in waiting
// order (rules/seats firstSeatable); that contract, once seated, wakes the next (workflows/contract/
// panel.ts wakeNextSeatable). A wake that fails changes no answer: the contract's retry timer is the
// fallback.
import { nextSeatable } from '../../store/ledger/seats';
import type { ContractContext } from './context';

export function seatWaker(
  ctx: ContractContext,
  logError: (err: unknown) => void = console.error,
): () => Promise<void> {
  const terms = { baBond: ctx.params.baBond, baEligibilityStake: ctx.params.baEligibilityStake };
  return async () => {
    try {
      const next = await nextSeatable(ctx.ledger, terms);
      if (next !== null) await ctx.contracts.seatsFreed?.(next);
    } catch (error) {
      logError(error);
    }
  };
}
