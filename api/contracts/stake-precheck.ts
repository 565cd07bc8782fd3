// The Temporal budget (docs/security.md "Temporal budget"): an accept that cannot fund its Worker Stake is refused
// here, 402 before any Update exists, so a flood of unfunded accepts writes nothing to the contract's
// history. Only while the contract is open: a retried accept that already matched goes on to the
// workflow, which answers it (the same Update ID) whatever the caller's balance is now.
//
// Only a refusal needs the contract's status. A fixed-price contract's stake is known without it
// (api/contracts/fixed-stake-memo.ts), so a caller who can pay it goes on without a query of the workflow;
// one who cannot is refused, or let through, on the view read now, exactly as without the memo.
import { agentOwner } from '../../store/ledger';
import type { ContractContext } from './context';
import { stakeToMatch } from './views';
import { existingContract } from './requests';
import { insufficientFunds } from '../errors';

async function availableUsdc(ctx: ContractContext, caller: string): Promise<bigint> {
  return (await ctx.ledger.balances(agentOwner(caller))).USDC.available;
}

export async function requireStakeFunds(
  ctx: ContractContext,
  contractId: string,
  caller: string,
): Promise<void> {
  const known = ctx.contracts.fixedStake(contractId);
  let available: bigint | undefined;
  if (known !== undefined) {
    available = await availableUsdc(ctx, caller);
    if (available >= known) return;
  }
  const view = await existingContract(ctx, contractId);
  const stake = stakeToMatch(view)?.workerStake;
  if (stake === undefined || stake === null) return;
  const needed = BigInt(stake);
  available ??= await availableUsdc(ctx, caller); // one ledger read per refused accept
  if (available >= needed) return;
  throw insufficientFunds(`the caller has ${available} USDC available, the Worker Stake needs ${needed}`, {
    available: available.toString(),
    needed: needed.toString(),
  });
}
