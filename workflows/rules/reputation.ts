// Reputation as a pure function of the outcome log (docs/reputation.md §3–§4): raw figures per role,
// and the trust-weighted score, a personalized PageRank over the graph of settled contracts. The
// service (api/reputation) and the independent auditor (scripts/audit) both fold records through
// this module, so the formulas exist once; the docs state them so anyone can write their own.
import { criterionCreditHalves, DIFFICULTY_MULTIPLIER } from './difficulty';
import type { OutcomeRecord } from './outcomes';

export interface WorkerFigures {
  contracts: number;
  /** USDC minor units paid to it (decimal string). */
  volume: string;
  /** Σ share of criteria credited × difficulty multiplier. */
  credit: number;
  withdrawals: number;
  absences: number;
  disputesLost: number;
}

export interface ClientFigures {
  contracts: number;
  /** USDC minor units it paid out to Workers (decimal string). */
  volume: string;
  reviewsTimedOut: number;
  disputesRaised: number;
  /** Of its disputes, those the final outcome agreed with (the Worker was not paid in full). */
  disputesUpheld: number;
}

export interface BackupAgentFigures {
  seats: number;
  /** Votes cast on criteria whose final outcome they matched, over votes cast. */
  votesCast: number;
  votesCoherent: number;
  /** Seats where it cast no vote at all. */
  missedVotes: number;
}

export interface RawReputation {
  worker: WorkerFigures;
  client: ClientFigures;
  backupAgent: BackupAgentFigures;
  /** Distinct counterparties over every role. */
  counterparties: number;
}

/**
 * 2520 = lcm(1..10): a record's credit share `halves / (2 × total)` is an integer number of 1/2520ths
 * for every criteria count from 1 to 10, so the running sum stays exact in a double.
 */
const CREDIT_DENOMINATOR = 2520;

/** Mutable accumulators behind RawReputation (bigint volumes, a set of counterparties). */
export interface RawAccumulator {
  worker: Omit<WorkerFigures, 'volume' | 'credit'> & { volume: bigint; creditUnits: number };
  client: Omit<ClientFigures, 'volume'> & { volume: bigint };
  backupAgent: BackupAgentFigures;
  counterparties: Set<string>;
}

export function emptyAccumulator(): RawAccumulator {
  return {
    worker: { contracts: 0, volume: 0n, creditUnits: 0, withdrawals: 0, absences: 0, disputesLost: 0 },
    client: { contracts: 0, volume: 0n, reviewsTimedOut: 0, disputesRaised: 0, disputesUpheld: 0 },
    backupAgent: { seats: 0, votesCast: 0, votesCoherent: 0, missedVotes: 0 },
    counterparties: new Set(),
  };
}

/** A settled record: Criteria Met is known (a cancellation has no criteria). */
function isSettled(r: OutcomeRecord): boolean {
  return r.criteria.length > 0;
}

function fullyMet(r: OutcomeRecord): boolean {
  return r.criteriaMet === r.criteriaTotal - r.criteriaUnclear;
}

/** A settled contract's credited halves × its multiplier: the credit is this / (2 × criteriaTotal). */
export function creditHalves(r: OutcomeRecord): number {
  const halves = r.criteria.reduce((sum, c) => sum + criterionCreditHalves(c.outcome, c.score), 0);
  return halves * DIFFICULTY_MULTIPLIER[r.difficulty];
}

/** The Worker's credit for one record: share of criteria credited × multiplier. */
export function creditOf(r: OutcomeRecord): number {
  return isSettled(r) ? creditHalves(r) / (2 * r.criteriaTotal) : 0;
}

/** Folds one record into its party's accumulator. */
export function foldRecord(acc: RawAccumulator, r: OutcomeRecord): void {
  if (r.counterparty !== null) acc.counterparties.add(r.counterparty);
  const amount = BigInt(r.amount);
  if (r.role === 'worker') {
    const w = acc.worker;
    w.contracts++;
    w.volume += amount;
    if (isSettled(r)) w.creditUnits += creditHalves(r) * (CREDIT_DENOMINATOR / (2 * r.criteriaTotal));
    if (r.ending === 'withdrawn') w.withdrawals++;
    if (r.ending === 'absent') w.absences++;
    if (r.disputed && isSettled(r) && !fullyMet(r)) w.disputesLost++;
  } else if (r.role === 'client') {
    const c = acc.client;
    c.contracts++;
    c.volume += amount;
    if (r.ending === 'review-timed-out') c.reviewsTimedOut++;
    if (r.disputed) {
      c.disputesRaised++;
      if (isSettled(r) && !fullyMet(r)) c.disputesUpheld++;
    }
  } else {
    const b = acc.backupAgent;
    b.seats++;
    const votes = r.votes ?? [];
    const cast = votes.filter((v) => v !== 'no vote');
    if (cast.length === 0) b.missedVotes++;
    b.votesCast += cast.length;
    b.votesCoherent += votes.filter((v, i) => v !== 'no vote' && v === r.criteria[i]?.outcome).length;
  }
}

export function rawFrom(acc: RawAccumulator): RawReputation {
  const { creditUnits: units, volume, ...worker } = acc.worker;
  return {
    worker: { ...worker, volume: volume.toString(), credit: units / CREDIT_DENOMINATOR },
    client: { ...acc.client, volume: acc.client.volume.toString() },
    backupAgent: { ...acc.backupAgent },
    counterparties: acc.counterparties.size,
  };
}

/** Raw figures of every party in a run of records. */
export function rawReputations(records: Iterable<OutcomeRecord>): Map<string, RawReputation> {
  const accs = new Map<string, RawAccumulator>();
  for (const r of records) {
    let acc = accs.get(r.party);
    if (acc === undefined) accs.set(r.party, (acc = emptyAccumulator()));
    foldRecord(acc, r);
  }
  return new Map([...accs].map(([party, acc]) => [party, rawFrom(acc)]));
}

// ---- The trust graph and the personalized PageRank ----

/**
 * Edges of the trust graph from one record, read off the Worker's record of a settled contract that
 * paid something: the Client (whose money paid) trusts the Worker by `amount × credit`, and the
 * Worker vouches for the Client that paid it by `amount`. Amounts in whole USDC (minor units / 10⁶).
 */
export function edgesOf(r: OutcomeRecord): { from: string; to: string; weight: number }[] {
  if (r.role !== 'worker' || r.counterparty === null || !isSettled(r)) return [];
  const paid = Number(BigInt(r.amount)) / 1e6;
  if (paid <= 0) return [];
  const edges = [{ from: r.counterparty, to: r.party, weight: paid * creditOf(r) }];
  edges.push({ from: r.party, to: r.counterparty, weight: paid });
  return edges.filter((e) => e.weight > 0);
}

/** The weighted graph, built incrementally as records arrive. */
export class TrustGraph {
  private readonly index = new Map<string, number>();
  readonly names: string[] = [];
  /** Per node: target → summed weight. */
  private readonly out: Map<number, number>[] = [];
  /** Row-normalized adjacency per node, rebuilt only for the rows an edge changed. */
  private readonly targets: Int32Array[] = [];
  private readonly weights: Float64Array[] = [];
  private readonly dirty = new Set<number>();

  node(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.index.set(name, i);
      this.names.push(name);
      this.out.push(new Map());
      this.targets.push(new Int32Array(0));
      this.weights.push(new Float64Array(0));
    }
    return i;
  }

  has(name: string): boolean {
    return this.index.has(name);
  }

  indexOf(name: string): number | undefined {
    return this.index.get(name);
  }

  add(record: OutcomeRecord): void {
    for (const e of edgesOf(record)) {
      const from = this.node(e.from);
      const to = this.node(e.to);
      const row = this.out[from]!;
      row.set(to, (row.get(to) ?? 0) + e.weight);
      this.dirty.add(from);
    }
  }

  /** Row-normalized adjacency (each node's outgoing weights summing to 1). */
  private compile() {
    for (const u of this.dirty) {
      const row = this.out[u]!;
      const total = [...row.values()].reduce((a, b) => a + b, 0);
      this.targets[u] = Int32Array.from(row.keys());
      this.weights[u] = Float64Array.from([...row.values()].map((w) => w / total));
    }
    this.dirty.clear();
    return { targets: this.targets, weights: this.weights };
  }

  /**
   * Personalized PageRank restarting at `seeds` (evenly): with probability `damping` follow an
   * outgoing edge by weight, else jump back to a seed; a node without edges jumps back too. Iterates
   * until the L1 change is below `tolerance`. Returns each node's stationary probability (to within
   * about tolerance × damping / (1 − damping) in L1, wherever the walk started).
   */
  personalizedPageRank(
    seeds: readonly string[],
    damping = DAMPING,
    tolerance = 1e-10,
    /** A previous answer for the same seeds on a smaller graph: the walk starts there and converges sooner. */
    start?: Float64Array,
  ): Float64Array {
    const n = this.names.length;
    const { targets, weights } = this.compile();
    const restart = new Float64Array(n);
    const known = seeds.map((s) => this.index.get(s)).filter((i): i is number => i !== undefined);
    for (const i of known) restart[i]! += 1 / known.length;
    let rank = Float64Array.from(restart);
    if (start !== undefined && known.length > 0) {
      rank = new Float64Array(n);
      rank.set(start.subarray(0, Math.min(n, start.length)));
    }
    for (let iteration = 0; iteration < 200 && known.length > 0; iteration++) {
      const next = new Float64Array(n);
      let dangling = 0;
      for (let u = 0; u < n; u++) {
        const mass = rank[u]!;
        if (mass === 0) continue;
        const t = targets[u]!;
        if (t.length === 0) {
          dangling += mass;
          continue;
        }
        const w = weights[u]!;
        for (let k = 0; k < t.length; k++) next[t[k]!]! += damping * mass * w[k]!;
      }
      const back = 1 - damping + damping * dangling;
      let change = 0;
      for (let i = 0; i < n; i++) {
        next[i]! += back * restart[i]!;
        change += Math.abs(next[i]! - rank[i]!);
      }
      rank = next;
      if (change < tolerance) break;
    }
    return rank;
  }
}

/** The probability of following an edge rather than jumping back to the viewer. */
export const DAMPING = 0.85;

/**
 * The trust-weighted score shown beside the raw figures: the agent's stationary probability × the
 * number of nodes in the graph (1 = an average node's share), rounded to 6 significant digits so the
 * service and the auditor agree whatever the summation order.
 */
export function trustScore(rank: Float64Array, graph: TrustGraph, agent: string): number {
  const i = graph.indexOf(agent);
  if (i === undefined) return 0;
  const value = rank[i]! * graph.names.length;
  return value === 0 ? 0 : Number(value.toPrecision(6));
}
