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

// ---- The trust graph, the personalized PageRank and the coverage ----

/** The probability of following an edge rather than jumping back to the viewer (or stopping). */
export const DAMPING = 0.85;
const TOLERANCE = 1e-10;
const MAX_ITERATIONS = 200;
/** Two successive step ratios this close: the coverage's remaining error is one geometric series. */
const STEADY = 1e-3;

/**
 * The edge of the trust graph from one record, read off the Worker's record of a settled contract that
 * paid something: the Client (whose money paid) → the Worker, weighted `amount × credit`, in whole USDC
 * (minor units / 10⁶). Trust passes only in the paying direction: a Worker paid by a key does not
 * vouch for that key, so no payment buys its payer any standing.
 */
export function edgesOf(r: OutcomeRecord): { from: string; to: string; weight: number }[] {
  if (r.role !== 'worker' || r.counterparty === null || !isSettled(r)) return [];
  const weight = (Number(BigInt(r.amount)) / 1e6) * creditOf(r);
  return weight > 0 ? [{ from: r.counterparty, to: r.party, weight }] : [];
}

/** One row per node, normalized to sum to 1: targets and their shares. */
interface Rows {
  targets: Int32Array[];
  weights: Float64Array[];
}

/** The two vectors of one viewer: where its trust flows (`rank`), and how much of each record it covers. */
export interface TrustVectors {
  rank: Float64Array;
  coverage: Float64Array;
}

/** The weighted graph, built incrementally as records arrive. */
export class TrustGraph {
  private readonly index = new Map<string, number>();
  readonly names: string[] = [];
  /** Per node: payee → summed weight (what it paid for), and payer → summed weight (what it was paid). */
  private readonly paid: Map<number, number>[] = [];
  private readonly paidBy: Map<number, number>[] = [];
  /** The same rows normalized, rebuilt only for the rows an edge changed. */
  private readonly out: Rows = { targets: [], weights: [] };
  private readonly in: Rows = { targets: [], weights: [] };
  private readonly dirtyOut = new Set<number>();
  private readonly dirtyIn = new Set<number>();

  node(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.index.set(name, i);
      this.names.push(name);
      for (const m of [this.paid, this.paidBy]) m.push(new Map());
      for (const rows of [this.out, this.in]) {
        rows.targets.push(new Int32Array(0));
        rows.weights.push(new Float64Array(0));
      }
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
      const paid = this.paid[from]!;
      paid.set(to, (paid.get(to) ?? 0) + e.weight);
      const paidBy = this.paidBy[to]!;
      paidBy.set(from, (paidBy.get(from) ?? 0) + e.weight);
      this.dirtyOut.add(from);
      this.dirtyIn.add(to);
    }
  }

  private static compile(sums: Map<number, number>[], rows: Rows, dirty: Set<number>): Rows {
    for (const u of dirty) {
      const row = sums[u]!;
      const total = [...row.values()].reduce((a, b) => a + b, 0);
      rows.targets[u] = Int32Array.from(row.keys());
      rows.weights[u] = Float64Array.from([...row.values()].map((w) => w / total));
    }
    dirty.clear();
    return rows;
  }

  private seedsOf(seeds: readonly string[]): number[] {
    return seeds.map((s) => this.index.get(s)).filter((i): i is number => i !== undefined);
  }

  /**
   * Personalized PageRank restarting at `seeds` (evenly): with probability `damping` follow one of the
   * node's payments by weight, else jump back to a seed; a node that paid nobody jumps back too.
   * Iterates until the L1 change is below `tolerance`. Returns each node's stationary probability (to
   * within about tolerance × damping / (1 − damping) in L1, wherever the walk started).
   */
  personalizedPageRank(
    seeds: readonly string[],
    damping = DAMPING,
    tolerance = TOLERANCE,
    /** A previous answer for the same seeds on a smaller graph: the walk starts there and converges sooner. */
    start?: Float64Array,
  ): Float64Array {
    const n = this.names.length;
    const { targets, weights } = TrustGraph.compile(this.paid, this.out, this.dirtyOut);
    const restart = new Float64Array(n);
    const known = this.seedsOf(seeds);
    for (const i of known) restart[i]! += 1 / known.length;
    let rank = Float64Array.from(restart);
    if (start !== undefined && known.length > 0) {
      rank = new Float64Array(n);
      rank.set(start.subarray(0, Math.min(n, start.length)));
    }
    for (let iteration = 0; iteration < MAX_ITERATIONS && known.length > 0; iteration++) {
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

  /**
   * Each node's coverage by `seeds`: the probability that a walk backwards from the node — to one of
   * the keys that paid it, chosen by how much it paid, then to one of theirs, stopping with probability
   * 1 − `damping` at each step — reaches a seed. A seed covers itself (1); a node nobody paid, 0. It is
   * the share of a node's paid record that traces back to the viewer's money: work paid for by keys
   * the viewer never reaches dilutes it, whatever their volume. The fixed point of
   * `coverage(v) = damping × Σ_payers share(payer, v) × coverage(payer)`, iterated from `start` (or 0)
   * until the L1 change is below `tolerance`.
   */
  coverage(
    seeds: readonly string[],
    damping = DAMPING,
    tolerance = TOLERANCE,
    start?: Float64Array,
  ): Float64Array {
    const n = this.names.length;
    const { targets, weights } = TrustGraph.compile(this.paidBy, this.in, this.dirtyIn);
    const known = this.seedsOf(seeds);
    let cover = new Float64Array(n);
    if (start !== undefined) cover.set(start.subarray(0, Math.min(n, start.length)));
    let previousChange = Number.POSITIVE_INFINITY;
    let previousRatio = Number.NaN;
    for (let iteration = 0; iteration < MAX_ITERATIONS && known.length > 0; iteration++) {
      const next = new Float64Array(n);
      for (let v = 0; v < n; v++) {
        const t = targets[v]!;
        const w = weights[v]!;
        let sum = 0;
        for (let k = 0; k < t.length; k++) sum += w[k]! * cover[t[k]!]!;
        next[v] = damping * sum;
      }
      for (const i of known) next[i] = 1;
      let change = 0;
      for (let i = 0; i < n; i++) change += Math.abs(next[i]! - cover[i]!);
      // Unlike the PageRank, whose mass is restored each step, the coverage fills up from below at
      // the damping's rate: once the step shrinks by a steady ratio, jump to that geometric series'
      // limit (extrapolation, as for PageRank by Kamvar et al. 2003), then iterate on to the tolerance.
      const ratio = change / previousChange;
      if (Math.abs(ratio - previousRatio) < STEADY && ratio < 1) {
        const ahead = ratio / (1 - ratio);
        for (let i = 0; i < n; i++)
          next[i] = Math.min(1, Math.max(0, next[i]! + (next[i]! - cover[i]!) * ahead));
        previousRatio = Number.NaN;
      } else previousRatio = ratio;
      previousChange = change;
      cover = next;
      if (change < tolerance) break;
    }
    return cover;
  }

  /** Both vectors for `seeds`, each warm-started from an older answer when given. */
  trust(seeds: readonly string[], start?: TrustVectors): TrustVectors {
    return {
      rank: this.personalizedPageRank(seeds, DAMPING, TOLERANCE, start?.rank),
      coverage: this.coverage(seeds, DAMPING, TOLERANCE, start?.coverage),
    };
  }
}

/**
 * The trust-weighted score shown beside the raw figures: the agent's stationary probability × the
 * number of nodes in the graph (1 = an average node's share), × its coverage (the share of its paid
 * record that traces back to the viewer), rounded to 6 significant digits so the service and the
 * auditor agree whatever the summation order.
 */
export function trustScore(trust: TrustVectors, graph: TrustGraph, agent: string): number {
  const i = graph.indexOf(agent);
  if (i === undefined) return 0;
  const value = trust.rank[i]! * graph.names.length * trust.coverage[i]!;
  return value === 0 ? 0 : Number(value.toPrecision(6));
}
