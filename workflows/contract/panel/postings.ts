// The ledger postings of a panel's tally, added to the settlement's own in ONE batch: each seat's
// hold (`<contractId>:ba-bond:<address>`, baBond of the agent's eligibility stake) resolved — the
// slashed part to the Treasury, the rest back into the agent's eligibility stake — and the reward
// tokens minted. A seat whose agent never voted is slashed from that same hold. Pure: the workflow
// and the tests share it.
import type { SettlementPosting } from '../../activity-interfaces';
import { toWire } from '../../rules/money';
import { seatHoldId } from '../../rules/seats';
import type { Address } from '../../rules/address';
import type { BackupAgentOutcome } from '../../rules/tally';

/** One seat's bond: slashed part to the Treasury, the rest released and held again as eligibility. */
function seatPostings(holdId: string, a: BackupAgentOutcome): SettlementPosting[] {
  const parts = [
    { to: 'treasury', amount: a.bondSlashed },
    { to: a.backupAgent, amount: a.bondReturned },
  ].filter((p) => p.amount > 0n);
  const postings: SettlementPosting[] = [
    {
      type: 'resolve',
      holdId,
      parts: parts.map((p) => ({ to: p.to, amount: toWire(p.amount) })),
    },
  ];
  if (a.bondReturned > 0n) {
    postings.push({
      type: 'hold',
      owner: a.backupAgent,
      kind: 'eligibility',
      amount: toWire(a.bondReturned),
    });
  }
  return postings;
}

/**
 * Every seat of the scored panels resolved, then every reward minted. `voidRoundsOf` names the void
 * rounds before each agent's panel, which number its seat's hold (rules/seats seatHoldId).
 */
export function panelPostings(
  contractId: string,
  agents: readonly BackupAgentOutcome[],
  voidRoundsOf: (agent: Address) => number = () => 0,
): SettlementPosting[] {
  const postings = agents.flatMap((a) =>
    seatPostings(seatHoldId(contractId, a.backupAgent, voidRoundsOf(a.backupAgent)), a),
  );
  for (const a of agents) {
    if (a.tokensMinted > 0n)
      postings.push({ type: 'mint', to: a.backupAgent, amount: toWire(a.tokensMinted) });
  }
  return postings;
}
