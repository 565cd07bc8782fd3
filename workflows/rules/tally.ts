// The V2C tally (SPEC §8): per-criterion majority, Criteria Met, one vote row per (BA, criterion),
// and what each BA's bond, eligibility stake and token balance become.
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
  /** baBond for a voter, 0 for a non-voter (it posted none). */
  bondPosted: bigint;
  bondReturned: bigint;
  /** Slashed from the posted bond, to the Treasury. */
  bondSlashed: bigint;
  /** A non-voter's slashed slices, taken from its eligibility stake, to the Treasury. */
  stakeSlashed: bigint;
  tokensMinted: bigint;
}

export interface Tally {
  criteriaMet: Verdict[];
  rows: VoteRow[];
  agents: BackupAgentOutcome[];
  totals: { bondSlashed: bigint; stakeSlashed: bigint; tokensMinted: bigint };
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

export function tally(input: TallyInput): Tally {
  checkInput(input);
  const { panel, votes, criteriaCount, params } = input;
  const slice = bondSlice(params.baBond, criteriaCount);
  const voteOf = (ba: Address, i: number): RowVote => votes[ba]?.[i] ?? 'no vote';

  const criteriaMet = Array.from({ length: criteriaCount }, (_, i) =>
    majorityOutcome(
      panel.length,
      panel.map((ba) => voteOf(ba, i)),
    ),
  );

  const rows: VoteRow[] = [];
  const agents = panel.map((backupAgent): BackupAgentOutcome => {
    const voted = votes[backupAgent] !== undefined;
    let slashed = 0n;
    let tokensMinted = 0n;
    criteriaMet.forEach((majority, criterionIndex) => {
      const vote = voteOf(backupAgent, criterionIndex);
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
    const bondPosted = voted ? params.baBond : 0n;
    return {
      backupAgent,
      voted,
      bondPosted,
      bondReturned: voted ? bondPosted - slashed : 0n,
      bondSlashed: voted ? slashed : 0n,
      stakeSlashed: voted ? 0n : slashed,
      tokensMinted,
    };
  });

  const sum = (pick: (a: BackupAgentOutcome) => bigint) => agents.reduce((s, a) => s + pick(a), 0n);
  return {
    criteriaMet,
    rows,
    agents,
    totals: {
      bondSlashed: sum((a) => a.bondSlashed),
      stakeSlashed: sum((a) => a.stakeSlashed),
      tokensMinted: sum((a) => a.tokensMinted),
    },
  };
}

export type ReviewDecision = 'approve' | 'no-action';

/** The Client's approval, or no action by the Review Deadline: every criterion met (SPEC §7a). */
export function criteriaMetFromReview(_decision: ReviewDecision, criteriaCount: number): Verdict[] {
  if (!Number.isInteger(criteriaCount) || criteriaCount < 1) {
    throw new RangeError(`criteriaCount must be a positive integer, got ${criteriaCount}`);
  }
  return Array.from({ length: criteriaCount }, () => 'met' as const);
}
