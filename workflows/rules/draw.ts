// The deterministic, auditable BA panel draw (SPEC §8). docs/rules.md says how to recompute it.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { normalizeAddress, type Address } from './address';
import { CANONICAL_SHA256_RE } from './sha256';

export interface DrawInput {
  contractId: string;
  /** sha256 of the delivery (64 hex), as recorded with the delivery. */
  deliveryHash: string;
  panelSize: number;
  /** Drawn from first: an open-tender auction's remaining eligible bidders; empty otherwise. */
  priorityPool: readonly string[];
  /** Every agent holding the BA Eligibility Stake. */
  registry: readonly string[];
  /** Never drawn: the Client and the Worker. */
  exclude: readonly string[];
  /** The contract's draw secret (64 hex), committed at creation; null for contracts created before it. */
  secret?: string | null;
}

/** Everything the event log must record so anyone can recompute the panel. */
export interface DrawRecord {
  contractId: string;
  deliveryHash: string;
  panelSize: number;
  /** The revealed draw secret; null for contracts created before secrets (their seed has none). */
  secret: string | null;
  /** hex sha256(contractId + ':' + secret + ':' + deliveryHash), or without `secret + ':'` when null. */
  seed: string;
  /** Sorted, de-duplicated, client and worker removed. */
  priorityCandidates: Address[];
  /** Sorted, de-duplicated, client, worker and priority candidates removed. */
  registryCandidates: Address[];
  /** In draw order: priority picks by rank, then registry picks by rank. */
  panel: Address[];
}

/** The commitment published at creation: hex sha256 of the secret's 64 hex characters (as UTF-8). */
export function drawCommitment(secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(checkedHex(secret, 'secret'))));
}

function checkedHex(value: string, name: string): string {
  const hex = value.toLowerCase();
  if (!CANONICAL_SHA256_RE.test(hex)) throw new RangeError(`${name} must be 64 hex characters, got ${value}`);
  return hex;
}

/**
 * The seed: sha256(contractId:secret:deliveryHash). The secret is the service's, unknown to every
 * party until the draw, so no delivery hash the Worker can choose steers the panel. Contracts created
 * before secrets (null) keep sha256(contractId:deliveryHash).
 */
export function drawSeed(contractId: string, deliveryHash: string, secret: string | null = null): Uint8Array {
  if (contractId === '') throw new RangeError('contractId must not be empty');
  const hash = checkedHex(deliveryHash, 'deliveryHash');
  const mixed = secret === null ? '' : `${checkedHex(secret, 'secret')}:`;
  return sha256(utf8ToBytes(`${contractId}:${mixed}${hash}`));
}

/** A candidate's rank: hex sha256(seed ‖ the 20 bytes of its address). Lowest ranks are drawn first. */
export function drawRank(seed: Uint8Array, address: Address): string {
  return bytesToHex(sha256(concatBytes(seed, hexToBytes(address.slice(2)))));
}

function candidatesFrom(pool: readonly string[], excluded: ReadonlySet<Address>): Address[] {
  const unique = new Set(pool.map(normalizeAddress).filter((a) => !excluded.has(a)));
  return [...unique].sort();
}

function pickLowest(seed: Uint8Array, candidates: readonly Address[], count: number): Address[] {
  return candidates
    .map((address) => ({ address, rank: drawRank(seed, address) }))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.address < b.address ? -1 : 1))
    .slice(0, Math.max(0, count))
    .map((c) => c.address);
}

/**
 * Draws from candidate lists (what an auditor runs against the event log's record). The lists are
 * normalized first, so their order does not matter: only the seed and the candidates decide the panel.
 */
export function drawFromCandidates(
  record: Pick<DrawRecord, 'contractId' | 'deliveryHash' | 'panelSize'> & {
    secret?: string | null;
    priorityCandidates: readonly string[];
    registryCandidates: readonly string[];
  },
): DrawRecord {
  if (!Number.isInteger(record.panelSize) || record.panelSize < 0) {
    throw new RangeError(`panelSize must be a non-negative integer, got ${record.panelSize}`);
  }
  const secret = record.secret == null ? null : record.secret.toLowerCase();
  const seed = drawSeed(record.contractId, record.deliveryHash, secret);
  const priorityCandidates = candidatesFrom(record.priorityCandidates, new Set());
  const registryCandidates = candidatesFrom(record.registryCandidates, new Set(priorityCandidates));
  const fromPriority = pickLowest(seed, priorityCandidates, record.panelSize);
  const fromRegistry = pickLowest(seed, registryCandidates, record.panelSize - fromPriority.length);
  return {
    contractId: record.contractId,
    deliveryHash: record.deliveryHash.toLowerCase(),
    panelSize: record.panelSize,
    secret,
    seed: bytesToHex(seed),
    priorityCandidates,
    registryCandidates,
    panel: [...fromPriority, ...fromRegistry],
  };
}

/** The draw at delivery: the Client and the Worker are removed from both pools before anything else. */
export function drawPanel(input: DrawInput): DrawRecord {
  const excluded = new Set(input.exclude.map(normalizeAddress));
  return drawFromCandidates({
    ...input,
    priorityCandidates: candidatesFrom(input.priorityPool, excluded),
    registryCandidates: candidatesFrom(input.registry, excluded),
  });
}
