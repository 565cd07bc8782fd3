// The ledger postings of a panel's tally (SPEC §8), added to the settlement's own in ONE batch:
// each voter's BA bond resolved (slashed part to the Treasury, the rest back), each non-voter's
// slashed slices taken from its eligibility stake (the holds it is taken from resolved, what stays of
// the last one held again), and the reward tokens minted. Pure: the workflow and the tests share it.
import type { SettlementPosting } from '../../activities/ledger-activities';
import type { EligibilityHoldsOf } from '../../activities/panel-activities';
import type { Address } from '../rules/address';
import { toWire } from '../rules/money';
import type { Tally } from '../rules/tally';

/** A part of a resolve posting, to an address or the Treasury, before its wire form. */
type PostingPart = { to: string; amount: bigint };

function resolve(holdId: string, parts: readonly PostingPart[]): SettlementPosting {
  return {
    type: 'resolve',
    holdId,
    parts: parts.filter((p) => p.amount > 0n).map((p) => ({ to: p.to, amount: toWire(p.amount) })),
  };
}

/**
 * Takes `slash` from the agent's eligibility holds, oldest first, to the Treasury. A hold taken from
 * in part is resolved whole (slash to the Treasury, the rest back) and its rest held again at once.
 * An agent holding less than `slash` (it cannot have unlocked while seated, see docs/v2c.md) loses
 * what it holds and no more: the ledger never goes below zero.
 */
export function eligibilitySlash(
  agent: Address,
  slash: bigint,
  holds: EligibilityHoldsOf['holds'],
): SettlementPosting[] {
  const postings: SettlementPosting[] = [];
  let remaining = slash;
  for (const hold of holds) {
    if (remaining === 0n) break;
    const amount = BigInt(hold.amount);
    const taken = remaining < amount ? remaining : amount;
    remaining -= taken;
    postings.push(
      resolve(hold.holdId, [
        { to: 'treasury', amount: taken },
        { to: agent, amount: amount - taken },
      ]),
    );
    if (amount > taken) {
      postings.push({ type: 'hold', owner: agent, kind: 'eligibility', amount: toWire(amount - taken) });
    }
  }
  return postings;
}

export interface PanelPostingsInput {
  tally: Tally;
  /** Each voter's BA bond hold. */
  bondHolds: ReadonlyMap<Address, string>;
  /** The open eligibility holds of the non-voters with a slash (activity `eligibilityHolds`). */
  eligibility: readonly EligibilityHoldsOf[];
}

export function panelPostings({ tally, bondHolds, eligibility }: PanelPostingsInput): SettlementPosting[] {
  const postings: SettlementPosting[] = [];
  for (const a of tally.agents) {
    if (a.voted) {
      const holdId = bondHolds.get(a.backupAgent);
      if (holdId === undefined) throw new RangeError(`no bond hold for voter ${a.backupAgent}`);
      postings.push(
        resolve(holdId, [
          { to: 'treasury', amount: a.bondSlashed },
          { to: a.backupAgent, amount: a.bondReturned },
        ]),
      );
    } else if (a.stakeSlashed > 0n) {
      const holds = eligibility.find((e) => e.address === a.backupAgent)?.holds ?? [];
      postings.push(...eligibilitySlash(a.backupAgent, a.stakeSlashed, holds));
    }
  }
  for (const a of tally.agents) {
    if (a.tokensMinted > 0n)
      postings.push({ type: 'mint', to: a.backupAgent, amount: toWire(a.tokensMinted) });
  }
  return postings;
}

/** The non-voters whose slashed slices come from their eligibility stake. */
export function slashedNonVoters(tally: Tally): Address[] {
  return tally.agents.filter((a) => !a.voted && a.stakeSlashed > 0n).map((a) => a.backupAgent);
}
