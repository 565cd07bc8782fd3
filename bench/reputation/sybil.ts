// Sybil resistance (docs/reputation.md §7): 20 honest agents trade 200 contracts among themselves; a
// ring of 50 keys trades 1,000 larger contracts among its own keys. Seen from an honest viewer, the
// ring's best score against the median honest Worker's, while the ring's raw volume is larger. Then
// the ring buys a foothold: one of its keys works one small honest contract (a bridge); every ring key,
// the bridge included, is measured.
// Run: npx tsx bench/reputation/sybil.ts
import { median } from '../stats';
import { rawReputations, TrustGraph, trustScore } from '../../workflows/rules/reputation';
import type { OutcomeEntry } from '../../workflows/rules/outcomes';
import { address, chain, random, settledContract } from './synthetic';

const HONEST = Array.from({ length: 20 }, (_, i) => address(1, i));
const RING = Array.from({ length: 50 }, (_, i) => address(2, i));
const next = random(7);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;

function pairs(group: readonly string[], count: number, usdc: () => number, prefix: string): OutcomeEntry[] {
  const entries: OutcomeEntry[] = [];
  for (let i = 0; i < count; i++) {
    const client = pick(group);
    let worker = pick(group);
    while (worker === client) worker = pick(group);
    entries.push(...settledContract(`${prefix}-${i}`, client, worker, usdc()));
  }
  return entries;
}

const honest = pairs(HONEST, 200, () => 5 + Math.floor(next() * 45), 'h');
const ring = pairs(RING, 1_000, () => 100, 'r');

function measure(label: string, entries: OutcomeEntry[], bridgeKey?: string, newcomer?: string): void {
  const records = chain(entries);
  const raw = rawReputations(records);
  const graph = new TrustGraph();
  for (const r of records) graph.add(r);
  const viewer = HONEST[0]!;
  const trust = graph.trust([viewer]);
  const workers = (group: readonly string[]) =>
    group.filter((a) => a !== viewer && (raw.get(a)?.worker.contracts ?? 0) > 0);
  const honestScores = workers(HONEST).map((a) => trustScore(trust, graph, a));
  const ringScores = workers(RING).map((a) => trustScore(trust, graph, a));
  const volume = (group: readonly string[]) =>
    group.reduce((s, a) => s + BigInt(raw.get(a)?.worker.volume ?? '0'), 0n) / 1_000_000n;
  const medianHonest = median(honestScores);
  const bestRing = Math.max(...ringScores);
  const coverages = workers(HONEST).map((a) => trust.coverage[graph.indexOf(a)!]!);
  console.log(`\n${label} (${records.length} records, viewer ${viewer})`);
  console.log(
    `  raw Worker volume, USDC: ring ${volume(RING)}, honest ${volume(HONEST)} (ring / honest = ${(Number(volume(RING)) / Number(volume(HONEST))).toFixed(2)})`,
  );
  console.log(
    `  trust score: median honest Worker ${medianHonest}, best ring key ${bestRing}, ring total ${ringScores.reduce((a, b) => a + b, 0).toPrecision(4)}`,
  );
  console.log(
    `  best ring key / median honest = ${(bestRing / medianHonest).toExponential(2)} (goal ≤ 1e-2); honest Workers' coverage: min ${Math.min(...coverages).toFixed(3)}, median ${median(coverages).toFixed(3)}`,
  );
  if (bridgeKey !== undefined) {
    const paid = workers(HONEST).map((a) => Number(BigInt(raw.get(a)!.worker.volume) / 1_000_000n));
    const bridgeScore = trustScore(trust, graph, bridgeKey);
    const others = Math.max(
      ...workers(RING)
        .filter((a) => a !== bridgeKey)
        .map((a) => trustScore(trust, graph, a)),
    );
    const coverage = (a: string) => trust.coverage[graph.indexOf(a)!]!.toExponential(2);
    console.log(
      `  the bridge key (paid 10 USDC by an honest Client; median honest Worker paid ${median(paid)} USDC): score ${bridgeScore}, / median honest = ${(bridgeScore / medianHonest).toExponential(2)}; coverage ${coverage(bridgeKey)}`,
    );
    console.log(
      `  the other 49 ring keys: best ${others}, / median honest = ${(others / medianHonest).toExponential(2)}`,
    );
    if (newcomer !== undefined) {
      const score = trustScore(trust, graph, newcomer);
      console.log(
        `  an honest newcomer with the same one 10 USDC job and nothing else: score ${score}, / median honest = ${(score / medianHonest).toExponential(2)}; coverage ${coverage(newcomer)}`,
      );
    }
  }
}

measure('isolated ring', [...honest, ...ring]);
// The bridge: an honest Client pays one ring key 10 USDC for real work; the ring key then trades with
// the others. Beside it, for reference, an honest newcomer paid the same 10 USDC by the same Client.
const bridge = settledContract('bridge', HONEST[3]!, RING[0]!, 10);
const NEWCOMER = address(1, 99);
const reference = settledContract('newcomer', HONEST[3]!, NEWCOMER, 10);
measure('ring with one bridge contract', [...honest, ...bridge, ...reference, ...ring], RING[0], NEWCOMER);
