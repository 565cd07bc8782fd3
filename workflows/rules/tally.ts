// The V2C tally (docs/protocol.md §8): per-criterion majority, Criteria Met, one vote row per (BA, criterion),
// and what each BA's seat bond and token balance become.
import type { Address } from './address';
import { assertAmount, bps } from './money';
import type { ProtocolParams } from './params';
import type { Verdict } from './verdicts';

export type RowVote = Verdict | 'no vote';
export type BondOutcome = 'returned' | 'slashed' | 'partially slashed';

export interface VoteRow {
  backupAgent: Address;
  criterionIndex: number;
  vote: RowVote;
  majorityOutcome: Verdict;
  bondOutcome: BondOutcome;
  /** OCT minted to this BA for this criterion. */
  reward: bigint;
}

export interface BackupAgentOutcome {
  backupAgent: Address;
  voted: boolean;
  /** baBond: what the agent's seat holds, voter or not. */
  bondPosted: bigint;
  bondReturned: bigint;
  /** Slashed from the seat's bond, to the Treasury (a non-voter's included). */
  bondSlashed: bigint;
  tokensMinted: bigint;
}

export interface Tally {
  criteriaMet: Verdict[];
  rows: VoteRow[];
  agents: BackupAgentOutcome[];
  totals: { bondSlashed: bigint; tokensMinted: bigint };
}

export interface TallyInput {
  /** The drawn panel, in draw order. */
  panel: readonly Address[];
  /** Each voter's verdicts in criterion order; a panel member without an entry did not vote. */
  votes: Readonly<Record<string, readonly Verdict[]>>;
  criteriaCount: number;
  params: ProtocolParams;
}

/** A verdict held by more than half of the drawn panel, else `unclear` (also for an empty panel). */
export function majorityOutcome(panelSize: number, verdicts: readonly RowVote[]): Verdict {
  for (const candidate of ['met', 'not met'] as const) {
    if (verdicts.filter((v) => v === candidate).length * 2 > panelSize) return candidate;
  }
  return 'unclear';
}

/** The bond slice at risk per criterion; the remainder baBond − slice × criteria is never at risk. */
export function bondSlice(baBond: bigint, criteriaCount: number): bigint {
  return baBond / BigInt(criteriaCount);
}

interface RowResult {
  bondOutcome: BondOutcome;
  slashed: bigint;
  reward: bigint;
}

/** One cell of the §8 table, against one criterion's bond slice. */
export function scoreVote(
  majority: Verdict,
  vote: RowVote,
  slice: bigint,
  params: ProtocolParams,
): RowResult {
  if (majority === 'unclear') {
    const reward = vote === 'unclear' ? bps(params.rewardPerCriterion, params.unclearRewardBps) : 0n;
    return { bondOutcome: 'returned', slashed: 0n, reward };
  }
  if (vote === majority) return { bondOutcome: 'returned', slashed: 0n, reward: params.rewardPerCriterion };
  if (vote === 'unclear') {
    return { bondOutcome: 'partially slashed', slashed: bps(slice, params.unclearSlashBps), reward: 0n };
  }
  return { bondOutcome: 'slashed', slashed: slice, reward: 0n };
}

function checkInput({ panel, votes, criteriaCount, params }: TallyInput): void {
  if (!Number.isInteger(criteriaCount) || criteriaCount < 1) {
    throw new RangeError(`criteriaCount must be a positive integer, got ${criteriaCount}`);
  }
  assertAmount(params.baBond, 'baBond');
  if (new Set(panel).size !== panel.length) throw new RangeError('the panel lists a BA twice');
  for (const [voter, verdicts] of Object.entries(votes)) {
    if (!panel.includes(voter as Address)) throw new RangeError(`${voter} voted but is not on the panel`);
    if (verdicts.length !== criteriaCount) {
      throw new RangeError(`${voter} cast ${verdicts.length} verdicts for ${criteriaCount} criteria`);
    }
  }
}

/** Each criterion's majority over the drawn panel. */
export function panelMajority(input: TallyInput): Verdict[] {
  checkInput(input);
  const { panel, votes, criteriaCount } = input;
  return Array.from({ length: criteriaCount }, (_, i) =>
    majorityOutcome(
      panel.length,
      panel.map((ba) => votes[ba]?.[i] ?? 'no vote'),
    ),
  );
}

/**
 * Scores every seat of a panel against `outcome` (its own majority, or an appeal's final outcome):
 * the vote rows and what each seat's bond and token balance become.
 */
export function scorePanel(input: TallyInput, outcome: readonly Verdict[]): Omit<Tally, 'criteriaMet'> {
  checkInput(input);
  const { panel, votes, criteriaCount, params } = input;
  if (outcome.length !== criteriaCount) throw new RangeError('one outcome per criterion');
  const slice = bondSlice(params.baBond, criteriaCount);
  const rows: VoteRow[] = [];
  const agents = panel.map((backupAgent): BackupAgentOutcome => {
    let slashed = 0n;
    let tokensMinted = 0n;
    outcome.forEach((majority, criterionIndex) => {
      const vote = votes[backupAgent]?.[criterionIndex] ?? 'no vote';
      const result = scoreVote(majority, vote, slice, params);
      slashed += result.slashed;
      tokensMinted += result.reward;
      rows.push({
        backupAgent,
        criterionIndex,
        vote,
        majorityOutcome: majority,
        bondOutcome: result.bondOutcome,
        reward: result.reward,
      });
    });
    return {
      backupAgent,
      voted: votes[backupAgent] !== undefined,
      bondPosted: params.baBond,
      bondReturned: params.baBond - slashed,
      bondSlashed: slashed,
      tokensMinted,
    };
  });
  const sum = (pick: (a: BackupAgentOutcome) => bigint) => agents.reduce((s, a) => s + pick(a), 0n);
  return {
    rows,
    agents,
    totals: { bondSlashed: sum((a) => a.bondSlashed), tokensMinted: sum((a) => a.tokensMinted) },
  };
}

/** A panel's tally: its per-criterion majority becomes Criteria Met, each seat scored against it. */
export function tally(input: TallyInput): Tally {
  const criteriaMet = panelMajority(input);
  return { criteriaMet, ...scorePanel(input, criteriaMet) };
}

export type ReviewDecision = 'approve' | 'no-action';

/** The Client's approval, or no action by the Review Deadline: every criterion met (docs/protocol.md §7a). */
export function criteriaMetFromReview(_decision: ReviewDecision, criteriaCount: number): Verdict[] {
  if (!Number.isInteger(criteriaCount) || criteriaCount < 1) {
    throw new RangeError(`criteriaCount must be a positive integer, got ${criteriaCount}`);
  }
  return Array.from({ length: criteriaCount }, () => 'met' as const);
}

/**
 * Silence decides nothing: a round in which fewer than a majority of the seated BAs voted (1 of 3,
 * 2 of 5, none at all) is void, not a verdict.
 */
export function roundVoid(seats: number, voters: number): boolean {
  return voters * 2 <= seats;
}

/**
 * A void round's seats: a silent BA loses every slice of its seat's hold to the Treasury (it took a
 * seat and did not serve; the remainder under the slices is never at risk), a voter's bond comes back
 * whole; nobody is rewarded.
 */
export function voidRoundOutcomes(input: TallyInput): BackupAgentOutcome[] {
  checkInput(input);
  const { panel, votes, criteriaCount, params } = input;
  const lost = bondSlice(params.baBond, criteriaCount) * BigInt(criteriaCount);
  return panel.map((backupAgent) => {
    const voted = votes[backupAgent] !== undefined;
    const slashed = voted ? 0n : lost;
    return {
      backupAgent,
      voted,
      bondPosted: params.baBond,
      bondReturned: params.baBond - slashed,
      bondSlashed: slashed,
      tokensMinted: 0n,
    };
  });
}
