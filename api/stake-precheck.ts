// Issue 12 (docs/security.md "Temporal budget"): an accept that cannot fund its Worker Stake is refused
// here, 402 before any Update exists, so a flood of unfunded accepts writes nothing to the contract's
// history. Only while the contract is open: a retried accept that already matched goes on to the
// workflow, which answers it (the same Update ID) whatever the caller's balance is now.
import { agentOwner } from '../activities/ledger';
import type { ApiContext } from './deps';
import { stakeToMatch } from './contract-views';
import { existingContract } from './contract-requests';
import { insufficientFunds } from './errors';

export async function requireStakeFunds(ctx: ApiContext, contractId: string, caller: string): Promise<void> {
  const view = await existingContract(ctx, contractId);
  const stake = stakeToMatch(view)?.workerStake;
  if (stake === undefined || stake === null) return;
  const needed = BigInt(stake);
  const { USDC } = await ctx.ledger.balances(agentOwner(caller));
  if (USDC.available >= needed) return;
  throw insufficientFunds(
    `the caller has ${USDC.available} USDC available, the Worker Stake needs ${needed}`,
    { available: USDC.available.toString(), needed: needed.toString() },
  );
}
