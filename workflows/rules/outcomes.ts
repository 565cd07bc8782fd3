// The outcome log (docs/reputation.md §1): one public, content-free record per party when a contract
// (or a milestone) ends, hash-chained. Pure: the workflow builds a contract ending's entries with
// `outcomeEntries`, the store chains them (`chainRecord`), and the auditor checks the chain
// (`verifyChain`) with the same canonical bytes.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { DifficultyLevel } from './difficulty';
import type { RowVote } from './tally';
import type { Verdict } from './verdicts';

export const OUTCOME_ENDINGS = [
  'approved',
  'review-timed-out',
  'panel',
  'appeal',
  'arbiter',
  'withdrawn',
  'absent',
  'unmatched',
  'cancelled',
  'released-by-operator',
] as const;
export type OutcomeEnding = (typeof OUTCOME_ENDINGS)[number];

export const OUTCOME_ROLES = ['client', 'worker', 'backup-agent'] as const;
export type OutcomeRole = (typeof OUTCOME_ROLES)[number];

/** One criterion's final outcome and, when it carries a machine check, the automatic verifier's score. */
export interface OutcomeCriterion {
  outcome: Verdict;
  score: number | null;
}

/** A record before the log numbers and chains it. */
export interface OutcomeEntry {
  contractId: string;
  /** The milestone that ended (0-based), or null for the whole contract. */
  milestoneIndex: number | null;
  role: OutcomeRole;
  party: string;
  /** Worker ↔ Client; a Backup Agent's is the Client whose contract it judged; null when unmatched. */
  counterparty: string | null;
  /** USDC minor units paid to the Worker out of the escrow (decimal string); "0" for a cancellation. */
  amount: string;
  criteriaTotal: number;
  criteriaMet: number;
  criteriaUnclear: number;
  /** Per criterion; empty when the contract was cancelled (nothing was judged). */
  criteria: OutcomeCriterion[];
  ending: OutcomeEnding;
  /** The Client disputed the delivery (privacy-preserving mode). */
  disputed: boolean;
  /** Who appealed a panel's tally, if anyone. */
  appealedBy: 'client' | 'worker' | null;
  revisionsRequested: number;
  difficulty: DifficultyLevel;
  /** A Backup Agent's vote per criterion (the final outcome is `criteria[i].outcome`); null for the others. */
  votes: RowVote[] | null;
  /** The workflow's clock when the ending was recorded (ISO-8601, UTC). */
  endedAt: string;
}

/** A record as the log holds it: numbered from 1, chained to the one before. */
export interface OutcomeRecord extends OutcomeEntry {
  sequence: number;
  /** SHA-256 (hex) of the previous record's canonical bytes; GENESIS_HASH for sequence 1. */
  prevHash: string;
}

export interface ChainedOutcome extends OutcomeRecord {
  /** SHA-256 (hex) of this record's canonical bytes. */
  hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/** What one ending is: the workflow's data the entries are built from (workflows/contract/outcomes.ts). */
export interface ContractEnding {
  contractId: string;
  milestoneIndex: number | null;
  ending: OutcomeEnding;
  client: string;
  worker: string | null;
  /** Paid to the Worker (minor units); 0n for a cancellation. */
  payment: bigint;
  /** Final outcome per criterion; null for a cancellation. */
  criteriaMet: readonly Verdict[] | null;
  /** Automatic verifier scores by criterion index (machine-checked criteria only). */
  scores: ReadonlyMap<number, number>;
  disputed: boolean;
  appealedBy: 'client' | 'worker' | null;
  revisionsRequested: number;
  difficulty: DifficultyLevel;
  /** Every seated Backup Agent's vote per criterion (both panels after an appeal). */
  votes: readonly { backupAgent: string; criterionIndex: number; vote: RowVote }[];
  endedAt: string;
}

/** One entry per party: the Client, the Worker when matched, then each seated BA in seat order. */
export function outcomeEntries(e: ContractEnding): OutcomeEntry[] {
  const criteria: OutcomeCriterion[] = (e.criteriaMet ?? []).map((outcome, i) => ({
    outcome,
    score: e.scores.get(i) ?? null,
  }));
  const common = {
    contractId: e.contractId,
    milestoneIndex: e.milestoneIndex,
    amount: e.payment.toString(),
    criteriaTotal: criteria.length,
    criteriaMet: criteria.filter((c) => c.outcome === 'met').length,
    criteriaUnclear: criteria.filter((c) => c.outcome === 'unclear').length,
    criteria,
    ending: e.ending,
    disputed: e.disputed,
    appealedBy: e.appealedBy,
    revisionsRequested: e.revisionsRequested,
    difficulty: e.difficulty,
    endedAt: e.endedAt,
  };
  const entries: OutcomeEntry[] = [
    { ...common, role: 'client', party: e.client, counterparty: e.worker, votes: null },
  ];
  if (e.worker !== null) {
    entries.push({ ...common, role: 'worker', party: e.worker, counterparty: e.client, votes: null });
  }
  const seated: string[] = [];
  for (const v of e.votes) if (!seated.includes(v.backupAgent)) seated.push(v.backupAgent);
  for (const backupAgent of seated) {
    const votes: RowVote[] = criteria.map(() => 'no vote');
    for (const v of e.votes) if (v.backupAgent === backupAgent) votes[v.criterionIndex] = v.vote;
    entries.push({ ...common, role: 'backup-agent', party: backupAgent, counterparty: e.client, votes });
  }
  return entries;
}

/** JSON with object keys sorted by UTF-16 code unit, no whitespace; arrays keep their order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The fields an OutcomeRecord has, in the order the docs list them: what the hash covers. */
const RECORD_FIELDS = [
  'sequence',
  'prevHash',
  'contractId',
  'milestoneIndex',
  'role',
  'party',
  'counterparty',
  'amount',
  'criteriaTotal',
  'criteriaMet',
  'criteriaUnclear',
  'criteria',
  'ending',
  'disputed',
  'appealedBy',
  'revisionsRequested',
  'difficulty',
  'votes',
  'endedAt',
] as const satisfies readonly (keyof OutcomeRecord)[];

/** The bytes the hash covers: the record's own fields (never `hash`), canonical JSON, UTF-8. */
export function canonicalOutcomeBytes(record: OutcomeRecord): Uint8Array {
  const picked: Record<string, unknown> = {};
  for (const f of RECORD_FIELDS) picked[f] = record[f];
  return utf8ToBytes(canonicalJson(picked));
}

export function outcomeHash(record: OutcomeRecord): string {
  return bytesToHex(sha256(canonicalOutcomeBytes(record)));
}

/** Numbers and chains an entry after `previous` (null: the first record of the log). */
export function chainRecord(
  entry: OutcomeEntry,
  previous: { sequence: number; hash: string } | null,
): ChainedOutcome {
  const record: OutcomeRecord = {
    ...entry,
    sequence: (previous?.sequence ?? 0) + 1,
    prevHash: previous?.hash ?? GENESIS_HASH,
  };
  return { ...record, hash: outcomeHash(record) };
}

export interface ChainProblem {
  sequence: number;
  problem: string;
}

/**
 * Checks a run of records: consecutive sequences, each `prevHash` the previous record's hash, each
 * `hash` its own canonical bytes'. `previous` is where the run starts (null: at the genesis).
 */
export function verifyChain(
  records: readonly ChainedOutcome[],
  previous: { sequence: number; hash: string } | null = null,
): ChainProblem[] {
  const problems: ChainProblem[] = [];
  let prev = previous ?? { sequence: 0, hash: GENESIS_HASH };
  for (const r of records) {
    if (r.sequence !== prev.sequence + 1) {
      problems.push({ sequence: r.sequence, problem: `expected sequence ${prev.sequence + 1}` });
    }
    if (r.prevHash !== prev.hash) {
      problems.push({ sequence: r.sequence, problem: 'prevHash is not the previous record’s hash' });
    }
    const own = outcomeHash(r);
    if (r.hash !== own) problems.push({ sequence: r.sequence, problem: `hash is not its bytes’ (${own})` });
    // Continue from the recomputed hash: one edited record is reported once, at itself and its successor.
    prev = { sequence: r.sequence, hash: own };
  }
  return problems;
}
