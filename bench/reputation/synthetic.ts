// Synthetic outcome records for the reputation benchmarks: settled contracts between given agents,
// built with the same pure builder the workflow uses, chained as the store chains them.
import {
  chainRecord,
  outcomeEntries,
  type ChainedOutcome,
  type OutcomeEntry,
} from '../../workflows/rules/outcomes';

export function address(group: number, n: number): string {
  return `0x${group.toString(16).padStart(2, '0')}${n.toString(16).padStart(38, '0')}`;
}

/** A deterministic generator (mulberry32), so every run measures the same graph. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The client's and the worker's entries of one approved contract paying `usdc` whole USDC. */
export function settledContract(id: string, client: string, worker: string, usdc: number): OutcomeEntry[] {
  return outcomeEntries({
    contractId: id,
    milestoneIndex: null,
    ending: 'approved',
    client,
    worker,
    payment: BigInt(usdc) * 1_000_000n,
    criteriaMet: ['met', 'met', 'met'],
    scores: new Map(),
    disputed: false,
    appealedBy: null,
    revisionsRequested: 0,
    difficulty: 'standard',
    votes: [],
    endedAt: '2030-01-01T00:00:00.000Z',
  });
}

/** Chains entries in order, as the log would. */
export function chain(entries: readonly OutcomeEntry[]): ChainedOutcome[] {
  const out: ChainedOutcome[] = [];
  for (const e of entries) out.push(chainRecord(e, out.at(-1) ?? null));
  return out;
}
