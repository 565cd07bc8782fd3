// The appeal of a panel's tally and the final outcome. After a tally the Client or the Worker may
// appeal once within the appeal window, posting the Appeal Bond; a larger panel, none of the first,
// decides finally. Money waits for the final outcome: the contract settles when the window passes
// unused, when every party that may appeal has waived, or after the appeal panel's tally. Every seat
// of both panels is scored against the final outcome; the Appeal Bond comes back when the appeal
// changed at least one criterion's outcome and goes to the Treasury otherwise.
import { bps } from './money';
import type { ProtocolParams } from './params';
import { panelMajority, scorePanel, type Tally, type TallyInput } from './tally';
import type { Verdict } from './verdicts';

export type AppealParty = 'client' | 'worker';
export const APPEAL_PARTIES: readonly AppealParty[] = ['client', 'worker'];

export interface AppealState {
  /** End of the appeal window (ms since the epoch), from the first panel's tally. */
  deadline: number;
  appealedBy: AppealParty | null;
  waivedBy: AppealParty[];
}

export type AppealRefusal =
  | { code: 'not-a-party'; message: string }
  | { code: 'window-closed'; message: string }
  | { code: 'already-decided'; message: string };

export function appealBond(escrow: bigint, params: Pick<ProtocolParams, 'appealBondBps'>): bigint {
  return bps(escrow, params.appealBondBps);
}

export function appealDeadline(talliedAt: number, params: Pick<ProtocolParams, 'appealWindow'>): number {
  return talliedAt + params.appealWindow;
}

/** Why `party` may not appeal or waive now, or null when it may. */
export function appealRefusal(
  state: AppealState,
  party: AppealParty | null,
  now: number,
): AppealRefusal | null {
  if (party === null)
    return { code: 'not-a-party', message: 'only the Client or the Worker may appeal or waive' };
  if (now > state.deadline) return { code: 'window-closed', message: 'the appeal window has closed' };
  if (state.appealedBy !== null)
    return { code: 'already-decided', message: 'the tally was already appealed' };
  if (state.waivedBy.includes(party))
    return { code: 'already-decided', message: 'this party already waived its appeal' };
  return null;
}

/** The parties that may still appeal: none once appealed, or once the window is over. */
export function mayStillAppeal(state: AppealState, now: number): AppealParty[] {
  return APPEAL_PARTIES.filter((p) => appealRefusal(state, p, now) === null);
}

/** The first tally is final once nobody may appeal it any longer and it was not appealed. */
export function firstTallyFinal(state: AppealState, now: number): boolean {
  return state.appealedBy === null && mayStillAppeal(state, now).length === 0;
}

export interface FinalTally extends Tally {
  /** True when an appeal panel decided and its outcome differs from the first panel's somewhere. */
  appealChanged: boolean;
}

/**
 * The final outcome: the appeal panel's majority when there was an appeal, else the first panel's;
 * every seat of both panels scored against it.
 */
export function finalTally(first: TallyInput, appeal: TallyInput | null): FinalTally {
  const firstOutcome = panelMajority(first);
  const outcome: Verdict[] = appeal === null ? firstOutcome : panelMajority(appeal);
  const scored = [scorePanel(first, outcome), ...(appeal === null ? [] : [scorePanel(appeal, outcome)])];
  return {
    criteriaMet: outcome,
    rows: scored.flatMap((s) => s.rows),
    agents: scored.flatMap((s) => s.agents),
    totals: {
      bondSlashed: scored.reduce((s, p) => s + p.totals.bondSlashed, 0n),
      tokensMinted: scored.reduce((s, p) => s + p.totals.tokensMinted, 0n),
    },
    appealChanged: appeal !== null && outcome.some((v, i) => v !== firstOutcome[i]),
  };
}
