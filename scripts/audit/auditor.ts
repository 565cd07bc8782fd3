// The independent auditor (docs/reputation.md §6): from a service's public routes alone — the outcome
// log, each contract's public event log and its draw records — it checks the hash chain, recomputes
// every agent's raw reputation and a trust-weighted score, and every recorded panel draw, and lists
// each difference from what the service answers. It shares the pure formulas with the service
// (workflows/rules/reputation.ts, outcomes.ts, draw.ts): what it checks is the service's data and
// answers, not a second reading of the docs (docs/reputation.md says why).
import { drawCommitment, drawFromCandidates, drawSeed } from '../../workflows/rules/draw';
import { GENESIS_HASH, verifyChain, type ChainedOutcome } from '../../workflows/rules/outcomes';
import { rawReputations, TrustGraph, trustScore } from '../../workflows/rules/reputation';
import { bytesToHex } from '@noble/hashes/utils.js';

export interface AuditReport {
  records: number;
  /** The head the audit checked: keep it to detect a truncated log next time. */
  head: { sequence: number; hash: string };
  agents: number;
  contracts: number;
  draws: number;
  differences: string[];
}

type Fetch = (url: string) => Promise<Response>;
type JsonEvent = Record<string, unknown> & { type: string };

const PAGE = 1000;

async function getJson<T>(fetchFn: Fetch, base: string, path: string): Promise<T> {
  const res = await fetchFn(new URL(path, base).toString());
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function readLog(fetchFn: Fetch, base: string): Promise<ChainedOutcome[]> {
  const records: ChainedOutcome[] = [];
  let after = 0;
  for (;;) {
    const page = await getJson<{ records: ChainedOutcome[]; next: number | null }>(
      fetchFn,
      base,
      `/outcomes?after=${after}&limit=${PAGE}`,
    );
    records.push(...page.records);
    if (page.next === null || page.records.length === 0) return records;
    after = page.next;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Trust scores are the fixed point of an iteration stopped at a tolerance, and the service may have
 * started from an earlier answer: equal to within 1e-4, relative or absolute (docs/reputation.md §4).
 */
function closeEnough(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Checks each contract's records against its public event log, and each draw it records. */
function auditContract(
  contractId: string,
  records: readonly ChainedOutcome[],
  events: readonly JsonEvent[],
  differences: string[],
): number {
  const settled = events.find((e) => e.type === 'contract.settled');
  for (const r of records) {
    const payment = settled === undefined ? '0' : String(settled.payment);
    if (r.amount !== payment) {
      differences.push(
        `record ${r.sequence} (${contractId}): amount ${r.amount}, the event log paid ${payment}`,
      );
    }
  }
  const resolved = events.find((e) => e.type === 'contract.resolved') as
    { successCriteria: { met: boolean }[]; unclear: string[] } | undefined;
  if (settled !== undefined && resolved !== undefined) {
    const met = resolved.successCriteria.filter((c) => c.met).length;
    for (const r of records) {
      if (r.criteriaMet !== met || r.criteriaUnclear !== resolved.unclear.length) {
        differences.push(
          `record ${r.sequence} (${contractId}): criteria met/unclear ${r.criteriaMet}/${r.criteriaUnclear}, the event log ${met}/${resolved.unclear.length}`,
        );
      }
    }
  }
  const commitment = events.find((e) => e.type === 'contract.created')?.drawCommitment as string | undefined;
  const draws = events.filter((e) => e.type === 'contract.panel-drawn');
  let previousSecret: string | undefined;
  for (const d of draws) {
    auditDraw(contractId, d, commitment, previousSecret, differences);
    previousSecret = d.secret as string | undefined;
  }
  return draws.length;
}

function auditDraw(
  contractId: string,
  d: JsonEvent,
  commitment: string | undefined,
  previousSecret: string | undefined,
  differences: string[],
): void {
  const round = d.round as 'panel' | 'appeal';
  const secret = (d.secret as string | undefined) ?? null;
  const where = `draw ${contractId} (${round})`;
  if (secret !== null) {
    const expected = round === 'panel' ? commitment : previousSecret;
    if (expected !== undefined && drawCommitment(secret) !== expected) {
      differences.push(`${where}: the revealed secret does not hash to the commitment published before it`);
    }
  }
  const seed = bytesToHex(drawSeed(contractId, d.deliverySha256 as string, secret));
  if (seed !== d.seed) differences.push(`${where}: seed ${String(d.seed)}, recomputed ${seed}`);
  // The public log shows each candidate as a role, in address order: the draw is recomputed on
  // stand-in addresses in the same order, and each seat it picks must be a drawn Backup Agent.
  const candidates = d.candidates as { address: string; stake: string }[];
  const standIns = candidates.map((c, i) => ({
    address: `0x${(i + 1).toString(16).padStart(40, '0')}`,
    stake: c.stake,
  }));
  const redraw = drawFromCandidates({
    contractId,
    deliveryHash: d.deliverySha256 as string,
    panelSize: d.panelSize as number,
    round,
    secret,
    candidates: standIns,
  });
  const panel = d.panel as string[];
  if (redraw.panel.length !== panel.length) {
    differences.push(`${where}: ${panel.length} seats recorded, the draw seats ${redraw.panel.length}`);
  }
  for (const seat of redraw.panel) {
    const index = parseInt(seat.slice(2), 16) - 1;
    const role = candidates[index]?.address;
    if (role !== 'backup-agent') {
      differences.push(
        `${where}: the draw picks candidate ${index} (${String(role)}), who is not on the panel`,
      );
    }
  }
}

/** Attempts before the auditor reports a log that keeps growing under it as it stands. */
const ATTEMPTS = 3;

/**
 * Audits `base`. The service may append while the auditor reads: an answer that includes records
 * the auditor has not read starts the audit over (up to ATTEMPTS times), so a live service audits clean.
 */
export async function audit(
  base: string,
  fetchFn: Fetch = (url) => fetch(url),
  /** A head kept from an earlier audit: the log must still hold that record with that hash. */
  knownHead?: { sequence: number; hash: string },
): Promise<AuditReport> {
  for (let attempt = 1; ; attempt++) {
    const { report, grew } = await auditOnce(base, fetchFn, knownHead);
    if (!grew || attempt === ATTEMPTS) return report;
  }
}

async function auditOnce(
  base: string,
  fetchFn: Fetch,
  knownHead: { sequence: number; hash: string } | undefined,
): Promise<{ report: AuditReport; grew: boolean }> {
  const differences: string[] = [];
  let grew = false;
  const records = await readLog(fetchFn, base);
  const head = await getJson<{ sequence: number; hash: string }>(fetchFn, base, '/outcomes/head');
  for (const p of verifyChain(records)) differences.push(`record ${p.sequence}: ${p.problem}`);
  const last = records.at(-1);
  const ownHead = { sequence: last?.sequence ?? 0, hash: last?.hash ?? GENESIS_HASH };
  if (head.sequence > ownHead.sequence) grew = true;
  else if (!same(ownHead, head)) {
    differences.push(
      `head: the service answers ${head.sequence} ${head.hash}, the log ends at ${ownHead.sequence} ${ownHead.hash}`,
    );
  }

  if (knownHead !== undefined) {
    const kept = records.find((r) => r.sequence === knownHead.sequence);
    if (kept?.hash !== knownHead.hash) {
      differences.push(
        `known head ${knownHead.sequence} ${knownHead.hash}: the log has ${kept === undefined ? 'no such record (truncated)' : kept.hash}`,
      );
    }
  }

  const byContract = new Map<string, ChainedOutcome[]>();
  for (const r of records) byContract.set(r.contractId, [...(byContract.get(r.contractId) ?? []), r]);
  let draws = 0;
  for (const [contractId, own] of byContract) {
    const { events } = await getJson<{ events: JsonEvent[] }>(
      fetchFn,
      base,
      `/contracts/${encodeURIComponent(contractId)}/events`,
    );
    draws += auditContract(contractId, own, events, differences);
  }

  const raw = rawReputations(records);
  const graph = new TrustGraph();
  for (const r of records) graph.add(r);
  const viewer = records[0]?.party;
  const trust = viewer === undefined ? null : graph.trust([viewer]);
  for (const [agent, figures] of raw) {
    const query = viewer === undefined ? '' : `?viewer=${viewer}`;
    const answer = await getJson<{ through: number; raw: unknown; trust: { score: number | null } }>(
      fetchFn,
      base,
      `/agents/${agent}/reputation${query}`,
    );
    if (answer.through > ownHead.sequence) grew = true;
    if (answer.through !== ownHead.sequence) {
      differences.push(
        `${agent}: the service's figures run through ${answer.through}, the log through ${ownHead.sequence}`,
      );
      continue;
    }
    if (!same(answer.raw, figures)) {
      differences.push(
        `${agent}: raw reputation ${JSON.stringify(answer.raw)}, recomputed ${JSON.stringify(figures)}`,
      );
    }
    const score = trust === null ? null : trustScore(trust, graph, agent);
    if (!closeEnough(answer.trust.score, score)) {
      differences.push(`${agent}: trust from ${viewer} ${answer.trust.score}, recomputed ${score}`);
    }
  }
  return {
    report: {
      records: records.length,
      head: ownHead,
      agents: raw.size,
      contracts: byContract.size,
      draws,
      differences,
    },
    grew,
  };
}
