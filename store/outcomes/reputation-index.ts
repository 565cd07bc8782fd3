// The reputation read model (docs/reputation.md §5): the outcome log folded incrementally into every
// party's raw figures and the trust graph (workflows/rules/reputation.ts), tailing the log from the
// last sequence it has seen; each viewer's two vectors (PageRank and coverage) cached, and once the log
// grows recomputed from the cached ones (a warm start: a few iterations). A read costs one indexed query
// for new records plus, on a miss, one PageRank and one coverage walk over the graph.
import type { ChainedOutcome } from '../../workflows/rules/outcomes';
import {
  emptyAccumulator,
  foldRecord,
  rawFrom,
  TrustGraph,
  trustScore,
  type RawAccumulator,
  type TrustVectors,
  type RawReputation,
} from '../../workflows/rules/reputation';
import type { OutcomeLog } from './index';

const PAGE = 5_000;
/**
 * Viewers whose vectors are kept (least recently used dropped first): 256, fewer on a large graph so
 * the cache never holds more than 8 M numbers (64 MB), whoever asks from how many viewers.
 */
const CACHED_VIEWERS = 256;
const CACHED_NUMBERS = 8_000_000;

export type TrustFrom =
  | { kind: 'viewer'; viewer: string }
  | { kind: 'anchors'; anchors: readonly string[] }
  | { kind: 'none'; reason: string };

export interface Reputation {
  address: string;
  /** The log's last sequence these figures include. */
  through: number;
  raw: RawReputation;
  trust: {
    score: number | null;
    from: 'viewer' | 'anchors' | null;
    viewer: string | null;
    reason: string | null;
  };
}

export class ReputationIndex {
  private through = 0;
  private readonly accs = new Map<string, RawAccumulator>();
  private readonly graph = new TrustGraph();
  /** Per viewer: its vector and the sequence it was computed through (older: a warm start). */
  private readonly ranks = new Map<string, { trust: TrustVectors; through: number }>();
  private catchingUp: Promise<void> | null = null;

  constructor(private readonly log: OutcomeLog) {}

  /** Folds every record appended since the last call (concurrent callers share one pass). */
  catchUp(): Promise<void> {
    this.catchingUp ??= this.readNew().finally(() => (this.catchingUp = null));
    return this.catchingUp;
  }

  private async readNew(): Promise<void> {
    for (;;) {
      const page = await this.log.list(this.through, PAGE);
      for (const r of page) this.fold(r);
      if (page.length < PAGE) return;
    }
  }

  private fold(r: ChainedOutcome): void {
    let acc = this.accs.get(r.party);
    if (acc === undefined) this.accs.set(r.party, (acc = emptyAccumulator()));
    foldRecord(acc, r);
    this.graph.add(r);
    this.through = r.sequence;
  }

  private trustFrom(seeds: readonly string[]): TrustVectors {
    const key = [...seeds].sort().join(',');
    const cached = this.ranks.get(key);
    this.ranks.delete(key);
    const trust = cached?.through === this.through ? cached.trust : this.graph.trust(seeds, cached?.trust);
    this.ranks.set(key, { trust, through: this.through });
    const numbers = 2 * trust.rank.length;
    const room = Math.max(1, Math.min(CACHED_VIEWERS, Math.floor(CACHED_NUMBERS / Math.max(1, numbers))));
    while (this.ranks.size > room) this.ranks.delete(this.ranks.keys().next().value!);
    return trust;
  }

  async reputation(address: string, from: TrustFrom): Promise<Reputation> {
    await this.catchUp();
    const raw = rawFrom(this.accs.get(address) ?? emptyAccumulator());
    const base = { address, through: this.through, raw };
    if (from.kind === 'none') {
      return { ...base, trust: { score: null, from: null, viewer: null, reason: from.reason } };
    }
    const seeds = from.kind === 'viewer' ? [from.viewer] : from.anchors;
    const score = trustScore(this.trustFrom(seeds), this.graph, address);
    return {
      ...base,
      trust: {
        score,
        from: from.kind,
        viewer: from.kind === 'viewer' ? from.viewer : null,
        reason: null,
      },
    };
  }
}
